package dev.limiter.agent.cli;

import java.io.File;
import java.io.PrintStream;

/** The help text: every command and the exit codes (docs/cli.md says the same at length). */
final class Usage {

    private Usage() {
    }

    static void print(PrintStream stream) {
        String jar = "java -jar limiter.jar";
        stream.println("usage: " + jar + " COMMAND ...");
        stream.println();
        stream.println("Rules files:");
        stream.println("  validate RULES.yml              check a rules file (exit 0 ok, 1 invalid)");
        stream.println("  validate --strategies=A.jar" + File.pathSeparator
                + "B.jar RULES.yml   the same, with custom strategies");
        stream.println("  validate --classpath APP.jar" + File.pathSeparator
                + "DIR [RULES.yml]   check the @Limit annotations of the classes (and the file)");
        stream.println();
        stream.println("A running JVM (PID as jps or jcmd print it; same user, same machine):");
        stream.println("  attach PID [RULES.yml | rules=RULES.yml,NAME=VALUE...]");
        stream.println("                                  load the limiter into it (refused if it runs one already)");
        stream.println("  status PID [--json] [--watch [SECONDS]]");
        stream.println("                                  rules, modes, counters, top keys, reloads, store; --watch");
        stream.println("                                  refreshes every SECONDS (default 2), --json for scripts");
        stream.println("  reload PID                      re-read its rules file now (kept if invalid: exit 1)");
        stream.println("  enable PID | disable PID        release or throw the kill switch");
        stream.println("  mode PID RULE enforce|dry-run|file");
        stream.println("                                  switch one rule's mode (file: back to the file's mode)");
        stream.println();
        stream.println("Over the network (a JRE without the Attach API, another host or container): --jmx in place");
        stream.println("of PID, for status, reload, enable, disable and mode:");
        stream.println("  status --jmx HOST:PORT|service:jmx:URL [--jmx-user NAME] ...");
        stream.println("                                  HOST:PORT is the application's -Dcom.sun.management.jmxremote.port;");
        stream.println("                                  the password comes from " + RemoteJmx.PASSWORD_VARIABLE
                + " (or the terminal)");
        stream.println();
        stream.println("JDK Flight Recorder:");
        stream.println("  jfc                             print the JFR settings that enable the limiter's events:");
        stream.println("                                  " + jar + " jfc > limiter.jfc;");
        stream.println("                                  jcmd PID JFR.start settings=default settings=./limiter.jfc");
        stream.println();
        stream.println("  version                         print the version");
        stream.println("  help                            print this text");
        stream.println();
        stream.println("An application with the limiter: java -javaagent:limiter.jar=RULES.yml ...");
        stream.println();
        stream.println("Exit codes: 0 ok; 1 failed or invalid (rules, reload refused, unknown rule); 2 usage;");
        stream.println("  3 no such process; 4 cannot attach (another user's, not a JVM, other container);");
        stream.println("  5 attach disabled (-XX:+DisableAttachMechanism); 6 limiter already loaded;");
        stream.println("  7 no limiter MBeans in that JVM (none loaded, or not registered yet); 8 no Attach API");
        stream.println("  in this Java (use --jmx, or a JDK); 9 the --jmx address does not answer or refuses.");
    }
}
