package aotapp;

/** The method a rule names, in a class an AOT cache loads as the JVM starts ({@code AotCacheJarLayoutTest}). */
public class Mailer {

    public String send(String to) {
        return "sent to " + to;
    }
}
