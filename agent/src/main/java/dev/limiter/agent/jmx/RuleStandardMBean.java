package dev.limiter.agent.jmx;

import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.StandardMBean;

/**
 * Registers a {@link RuleMXBean} with what reflection cannot tell a console: the operations' parameter is
 * called {@code key} (not {@code p0}, which is all a compiled interface gives JConsole and jmxterm to show), and
 * the MBean says what it is.
 */
final class RuleStandardMBean extends StandardMBean {

    RuleStandardMBean(RuleMXBean rule) {
        super(rule, RuleMXBean.class, true);
    }

    @Override
    protected String getDescription(MBeanInfo info) {
        return "One limiter rule: counters, limits, top rejected keys, mode and reset";
    }

    @Override
    protected String getParameterName(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return "key"; // resetKey(key) and remaining(key) are the only operations with a parameter
    }

    @Override
    protected String getDescription(MBeanOperationInfo op, MBeanParameterInfo param, int sequence) {
        return "a key of the rule, as the rule extracts it (e.g. the client IP for key: ip)";
    }
}
