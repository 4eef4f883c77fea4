package dev.limiter.agent.jmx;

import dev.limiter.agent.diagnostics.Reweaving;
import dev.limiter.agent.diagnostics.AgentVersion;
import dev.limiter.agent.diagnostics.Diagnostics;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.RuleSetLoader;
import dev.limiter.rules.reload.RuleSetHolder;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanNotificationInfo;
import javax.management.Notification;
import javax.management.NotificationBroadcasterSupport;
import javax.management.ObjectName;

/**
 * The {@link LimiterMXBean}: reads the holder and the bridge, steers the kill switch, and broadcasts one
 * notification per reload attempt (told by {@link JmxRegistrar}, so reloads by the file watcher are announced
 * as well as those asked for over JMX).
 *
 * <p>Notifications are sent on the reloading thread; JMX connectors queue them per client, and a local listener
 * that throws is isolated by {@link NotificationBroadcasterSupport}, so no subscriber can hold up a reload.
 */
final class LimiterControl extends NotificationBroadcasterSupport implements LimiterMXBean {

    private static final MBeanNotificationInfo[] NOTIFICATIONS = {
        new MBeanNotificationInfo(new String[] {NOTIFICATION_RELOADED, NOTIFICATION_RELOAD_FAILED},
                Notification.class.getName(),
                "A reload of the rules file: success (new rules in force) or failure (previous rules kept; "
                        + "the user data holds the errors)")
    };

    private final RuleSetHolder holder;
    private final ObjectName name;
    private final AtomicLong sequence = new AtomicLong();

    LimiterControl(RuleSetHolder holder, ObjectName name) {
        super(NOTIFICATIONS);
        this.holder = holder;
        this.name = name;
    }

    @Override
    public String getRulesFile() {
        return holder.file().toAbsolutePath().toString();
    }

    @Override
    public int getRuleCount() {
        return holder.current().rules().size();
    }

    @Override
    public String[] getRuleIds() {
        List<Rule> rules = holder.current().rules();
        String[] ids = new String[rules.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = rules.get(i).id();
        }
        return ids;
    }

    @Override
    public long getReloadCount() {
        return holder.reloadCount();
    }

    @Override
    public long getFailedReloadCount() {
        return holder.failedReloadCount();
    }

    @Override
    public String getLastReloadTime() {
        long last = Math.max(holder.lastReloadMillis(), holder.lastErrorMillis());
        return last == 0 ? "" : Instant.ofEpochMilli(last).toString();
    }

    @Override
    public String getLastReloadError() {
        String error = holder.lastError();
        return error == null ? "" : error;
    }

    @Override
    public boolean isEnabled() {
        return LimiterBridge.isEnabled();
    }

    @Override
    public void setEnabled(boolean enabled) {
        LimiterBridge.setEnabled(enabled);
    }

    @Override
    public String getVersion() {
        return AgentVersion.get();
    }

    @Override
    public int getWovenTypes() {
        return Diagnostics.wovenClasses();
    }

    @Override
    public long getInternalErrors() {
        return LimiterBridge.internalErrors();
    }

    @Override
    public String getReweaving() {
        return Reweaving.state();
    }

    @Override
    public String getLastReweave() {
        return Reweaving.last();
    }

    @Override
    public String reload() {
        if (holder.reload()) {
            return "reloaded " + holder.file() + ": " + rules(holder.current().rules().size()) + " in force";
        }
        return "not reloaded, the " + rules(holder.current().rules().size()) + " in force stay:"
                + lines(holder.lastErrors());
    }

    @Override
    public String validate() {
        try {
            RuleSet checked = RuleSetLoader.load(holder.file(), RuleSet.empty());
            return "valid: " + holder.file() + ", " + rules(checked.rules().size());
        } catch (RulesException e) {
            return "invalid: " + holder.file() + lines(e.errors());
        }
    }

    /** Announces a reload that put {@code current} in force. */
    void reloaded(RuleSet current) {
        Notification notification = new Notification(NOTIFICATION_RELOADED, name, sequence.incrementAndGet(),
                System.currentTimeMillis(), "rules reloaded from " + holder.file() + ": "
                        + rules(current.rules().size()) + " in force");
        sendNotification(notification);
    }

    /** Announces a refused reload; the user data holds every error, one per line. */
    void reloadFailed(RulesException error, RuleSet current) {
        Notification notification = new Notification(NOTIFICATION_RELOAD_FAILED, name, sequence.incrementAndGet(),
                System.currentTimeMillis(), "rules not reloaded from " + holder.file() + ", the "
                        + rules(current.rules().size()) + " in force stay: " + error.errors().size()
                        + (error.errors().size() == 1 ? " error" : " errors"));
        notification.setUserData(lines(error.errors()).strip());
        sendNotification(notification);
    }

    private static String rules(int count) {
        return count + (count == 1 ? " rule" : " rules");
    }

    private static String lines(List<RulesError> errors) {
        StringBuilder text = new StringBuilder();
        for (RulesError error : errors) {
            text.append('\n').append(error);
        }
        return text.toString();
    }
}
