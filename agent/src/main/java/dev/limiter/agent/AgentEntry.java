package dev.limiter.agent;

import dev.limiter.agent.startup.Startup;
import dev.limiter.bootstrap.AgentHandoff;
import dev.limiter.bootstrap.AgentStarter;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

/**
 * The agent loader's entry point: {@link AgentStarter} initialises this class, whose static initialiser offers
 * the installer, and calls {@link Startup#run} through the bootstrap's {@link AgentHandoff}
 * interface, with no reflective call.
 */
public final class AgentEntry implements AgentHandoff {

    static {
        AgentStarter.offer(new AgentEntry());
    }

    private AgentEntry() {
    }

    @Override
    public void install(String args, Instrumentation inst, Path agentJar, boolean attached) {
        Startup.run(args, inst, attached);
    }

    @Override
    public void train(String args, Instrumentation inst) {
        Startup.train(args, inst);
    }
}
