package dev.limiter.agent.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * {@code jfc}: prints the JDK Flight Recorder settings that enable the limiter's events (the file is
 * docs/limiter.jfc in the source tree, packaged next to the event classes), so that a host with only the agent
 * jar can write it out: {@code java -jar limiter.jar jfc > limiter.jfc}.
 */
final class JfcCommand {

    /** Where the build puts docs/limiter.jfc (agent/pom.xml). */
    static final String RESOURCE = "/dev/limiter/agent/jfr/limiter.jfc";

    private JfcCommand() {
    }

    static int run(String[] args, PrintStream out) throws CliFailure {
        if (args.length != 1) {
            throw new CliFailure(ExitCode.USAGE, "jfc takes no arguments");
        }
        byte[] settings = settings();
        out.write(settings, 0, settings.length);
        out.flush();
        return ExitCode.OK;
    }

    static byte[] settings() throws CliFailure {
        try (InputStream in = JfcCommand.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new CliFailure(ExitCode.FAILED, "this limiter.jar has no " + RESOURCE.substring(1));
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new CliFailure(ExitCode.FAILED, "cannot read " + RESOURCE.substring(1) + ": " + e, e);
        }
    }
}
