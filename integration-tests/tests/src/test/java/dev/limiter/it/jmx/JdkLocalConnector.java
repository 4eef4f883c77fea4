package dev.limiter.it.jmx;

import com.sun.tools.attach.VirtualMachine;
import java.io.ByteArrayInputStream;
import java.io.ObjectInputStream;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.remote.JMXServiceURL;

/**
 * The TCP port of the JDK's own local JMX connector in another JVM: the connector
 * {@code VirtualMachine.startLocalManagementAgent()} starts when JConsole (or the test's {@code AttachedJmx})
 * attaches. It listens on an ephemeral port and accepts connections from this machine only. Telling it apart
 * from a connector the agent might open is the point of the no-connector test.
 *
 * <p>The JDK publishes the connector's address as the agent property {@value #ADDRESS_PROPERTY}: a
 * {@code service:jmx:rmi://host/stub/<base64>} URL that carries a serialized RMI stub instead of a port. The
 * port is in the stub's endpoint, which only its {@code toString()} shows ({@code ...endpoint:[127.0.0.1:33373]
 * ...}, the same on Java 17 and 25).
 */
final class JdkLocalConnector {

    static final String ADDRESS_PROPERTY = "com.sun.management.jmxremote.localConnectorAddress";
    private static final String STUB_PATH = "/stub/";
    private static final Pattern ENDPOINT_PORT = Pattern.compile("endpoint:\\[(.+?):(\\d+)[,\\]]");

    private JdkLocalConnector() {
    }

    /** The local connector's port in JVM {@code pid}, which must have one started already. */
    static int port(long pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        String address;
        try {
            address = vm.getAgentProperties().getProperty(ADDRESS_PROPERTY);
        } finally {
            vm.detach();
        }
        if (address == null) {
            throw new IllegalStateException("pid " + pid + " has no local JMX connector (" + ADDRESS_PROPERTY + ")");
        }
        return portOf(address);
    }

    private static int portOf(String address) throws Exception {
        String path = new JMXServiceURL(address).getURLPath();
        if (!path.startsWith(STUB_PATH)) {
            throw new IllegalArgumentException("not a stub address: " + address);
        }
        byte[] serialized = Base64.getDecoder().decode(path.substring(STUB_PATH.length()));
        Object stub;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
            stub = in.readObject();
        }
        Matcher endpoint = ENDPOINT_PORT.matcher(stub.toString());
        if (!endpoint.find()) {
            throw new IllegalStateException("no endpoint port in the stub " + stub);
        }
        return Integer.parseInt(endpoint.group(2));
    }
}
