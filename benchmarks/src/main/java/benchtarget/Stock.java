package benchtarget;

/**
 * What {@code MethodCallBenchmark} calls: {@link Inventory}'s methods, through this interface because the woven
 * copy of {@link Inventory} lives in a loader of its own (the interface is the one both loaders see).
 */
public interface Stock {

    /** Named by a {@code method:} rule keyed {@code global}. */
    long reserve();

    /** Named by a {@code method:} rule keyed {@code arg:0}. */
    long reserveFor(String customer);

    /** Carries {@code @Limit}. */
    long reserveAnnotated();

    /** Named by no rule: the method as the application wrote it, and what the peers guard. */
    long unlimited();

    /** Named by a {@code method:} rule of limit 1: the second call proves the class is woven. */
    long probe();

    /** {@code @Limit} of limit 1: the second call proves the annotation is woven. */
    long probeAnnotated();
}
