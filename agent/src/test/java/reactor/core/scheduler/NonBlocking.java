package reactor.core.scheduler;

/** A stand-in with the name of Reactor's marker of non-blocking threads (the agent's tests do not carry Reactor). */
public interface NonBlocking {
}
