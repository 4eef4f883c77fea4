package dev.limiter.agent.jmx;

/**
 * The limiter as a whole, registered as {@code dev.limiter:type=Limiter}: which file is in force, how reloads went,
 * the kill switch, and reload / validate operations.
 *
 * <p>An MXBean (not a standard MBean) because every value maps to open types: any console or remote client can
 * read it without the agent's classes, which live in an isolated class loader and are on no one's class path.
 * Reload outcomes are also sent as JMX notifications ({@link #NOTIFICATION_RELOADED},
 * {@link #NOTIFICATION_RELOAD_FAILED}).
 */
public interface LimiterMXBean {

    /** Notification type of a reload that put new rules in force. */
    String NOTIFICATION_RELOADED = "dev.limiter.reload.success";
    /** Notification type of a reload that was refused; the previous rules stay in force. */
    String NOTIFICATION_RELOAD_FAILED = "dev.limiter.reload.failure";

    /** The rules file the agent reads (absolute path). */
    String getRulesFile();

    /** Rules in force. */
    int getRuleCount();

    /** The ids of the rules in force, in the rules file's order (a console lists the rules in that order). */
    String[] getRuleIds();

    /** Successful reloads since start (the initial load is not counted). */
    long getReloadCount();

    /** Reloads refused since start (broken file): the previous rules stayed in force. */
    long getFailedReloadCount();

    /** ISO-8601 instant of the last load attempt, successful or not; empty if none. */
    String getLastReloadTime();

    /** Why the last load attempt failed ({@code file:line:col: message} lines); empty when it succeeded. */
    String getLastReloadError();

    /** False: the kill switch is thrown and every check allows. */
    boolean isEnabled();

    /** Throws or releases the kill switch; takes effect from the next request. */
    void setEnabled(boolean enabled);

    /** The agent's version. */
    String getVersion();

    /** Classes the agent has woven so far ("my rule does not match": is the servlet woven at all?). */
    int getWovenTypes();

    /** Errors caught inside the limiter that belong to no rule (each request was allowed). */
    long getInternalErrors();

    /**
     * {@code in force}, or {@code pending since <instant>} while classes already loaded are re-woven for the
     * method rules of a reload: until then calls of those methods are not checked yet.
     */
    String getReweaving();

    /** When the last reload's method rules came in force and how many classes that took; empty if none did. */
    String getLastReweave();

    /** Reads the file now and applies it if valid; returns what happened, with every validation error. */
    String reload();

    /** Checks the file without applying it; returns "valid" and the rule count, or every validation error. */
    String validate();
}
