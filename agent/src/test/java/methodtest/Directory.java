package methodtest;

/** Methods whose rules ask for keys the woven code cannot supply: a second argument, a principal. */
public class Directory {

    public String lookup(String name, String tenant) {
        return name + "@" + tenant;
    }

    public String secure(String name) {
        return "secure " + name;
    }
}
