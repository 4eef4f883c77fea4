package aotapp;

/** Calls {@link Mailer#send} five times and prints how many calls the limiter let through and refused. */
public final class AotMain {

    private AotMain() {
    }

    public static void main(String[] args) {
        Mailer mailer = new Mailer();
        int admitted = 0;
        int rejected = 0;
        for (int i = 0; i < 5; i++) {
            try {
                mailer.send("ops@example.com");
                admitted++;
            } catch (RuntimeException e) {
                if (!e.getClass().getName().equals("dev.limiter.api.RateLimitExceededException")) {
                    throw e;
                }
                rejected++;
            }
        }
        System.out.println("ADMITTED " + admitted + " REJECTED " + rejected);
    }
}
