package costtest;

import dev.limiter.api.Limit;
import java.util.Collection;
import java.util.List;

/** Methods whose rules read a call's cost from an argument ({@code cost: arg:N}); each returns what it was given. */
public class Exporter {

    /** {@code cost-int}: cost arg:1 (an int). */
    public int rows(String tenant, int rows) {
        return rows;
    }

    /** {@code cost-long}: cost arg:1 (a long). */
    public long bytes(String tenant, long bytes) {
        return bytes;
    }

    /** {@code cost-short}: cost arg:1 (a short, widened like an int). */
    public short pages(String tenant, short pages) {
        return pages;
    }

    /** {@code cost-array}: cost arg:1 (an array's length). */
    public int send(String tenant, String[] messages) {
        return messages == null ? -1 : messages.length;
    }

    /** {@code cost-bytes}: cost arg:1 (a primitive array's length). */
    public int upload(String tenant, byte[] data) {
        return data == null ? -1 : data.length;
    }

    /** {@code cost-list}: cost arg:1 (a collection's size). */
    public int sendAll(String tenant, List<String> messages) {
        return messages == null ? -1 : messages.size();
    }

    /** {@code cost-collection}: cost arg:0, declared as the Collection interface itself, key global. */
    public int store(Collection<?> items) {
        return items == null ? -1 : items.size();
    }

    /** {@code cost-wrong-index}: cost arg:3 on a method of two arguments. */
    public String label(String tenant, String text) {
        return text;
    }

    /** {@code cost-wrong-type} (allow) and {@code cost-wrong-type-strict} (on-error: reject): cost arg:0, a String. */
    public String title(String text) {
        return text;
    }

    /** {@code cost-several}: two limits, cost arg:0. */
    public int burst(int permits) {
        return permits;
    }

    /** Annotated: cost arg:0 (a long array's length), 10 a day (annotations run on the system clock). */
    @Limit(id = "cost-anno", limit = 10, window = "1d", cost = "arg:0")
    public int archive(long[] ids) {
        return ids == null ? -1 : ids.length;
    }

    /** {@code cost-alloc-long}: cost arg:0, a budget no test spends. */
    public long meter(long units) {
        return units;
    }

    /** {@code cost-alloc-list}: cost arg:0, a budget no test spends. */
    public int meterAll(List<String> items) {
        return items.size();
    }

    /** {@code cost-wait}: token bucket, on-limit: wait, cost arg:0. */
    public int paced(int permits) {
        return permits;
    }
}
