package dev.limiter.agent.cli;

/**
 * Whether this Java runtime has the Attach API. {@code jdk.attach} is in the boot layer of a full JDK started with
 * {@code java -jar} (the unnamed module's roots are every system module that exports an API), and it is defined
 * to the application loader; the isolated agent loader's parent, the platform loader, delegates a package of a
 * boot-layer module to the loader that defines it, so the CLI sees {@code com.sun.tools.attach} with no
 * {@code --add-modules}. A JRE or a jlink image without the module has none of it: checked here, by name, before
 * any class that links against it ({@link TargetJvm}) is loaded, so the operator gets a sentence rather than a
 * {@link NoClassDefFoundError}.
 */
final class AttachApi {

    static final String VIRTUAL_MACHINE = "com.sun.tools.attach.VirtualMachine";

    private AttachApi() {
    }

    static void require() throws CliFailure {
        require(AttachApi.class.getClassLoader(), VIRTUAL_MACHINE);
    }

    static void require(ClassLoader loader, String className) throws CliFailure {
        try {
            Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new CliFailure(ExitCode.NO_ATTACH_API, "this Java runtime (" + System.getProperty("java.home")
                    + ") has no Attach API (module jdk.attach), so it cannot reach a JVM by its pid: reach the "
                    + "JVM over its remote JMX connector instead, --jmx HOST:PORT (the application's "
                    + "-Dcom.sun.management.jmxremote.port; docs/cli.md, \"Over the network\"), or run the command "
                    + "with a full JDK's java");
        }
    }
}
