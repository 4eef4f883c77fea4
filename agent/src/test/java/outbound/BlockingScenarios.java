package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;

/**
 * The scenarios every blocking client's test program plays the same way, each printing its line
 * {@code name: k=v ...}: five calls over a limit of 2 an hour, and 41 calls paced at 40 a second.
 */
final class BlockingScenarios {

    /** One blocking GET of a path of the {@link PartnerServer}, answering its status. */
    interface Get {
        int get(String path) throws IOException;
    }

    private BlockingScenarios() {
    }

    /** Over a limit of 2 an hour: OK OK, then the rejection thrown before anything is sent. */
    static void reject(String name, Get client) {
        StringBuilder outcomes = new StringBuilder();
        String rejection = "";
        for (int i = 0; i < 5; i++) {
            try {
                client.get("/" + name + "/" + i);
                outcomes.append("OK,");
            } catch (OutboundRateLimitException e) {
                outcomes.append("REJ,");
                rejection = e.ruleId() + "/" + (e.retryAfterMillis() > 60_000);
            } catch (IOException e) {
                outcomes.append("IO,");
            }
        }
        System.out.println(name + ": outcomes=" + outcomes + " hits=" + PartnerServer.hits("/" + name)
                + " rejection=" + rejection);
    }

    /** 41 calls paced at 40 a second by a waiting rule. */
    static void pace(String name, Get client) throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < 41; i++) {
            client.get("/" + name + "/" + i);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(name + ": millis=" + millis + " hits=" + PartnerServer.hits("/" + name));
    }
}
