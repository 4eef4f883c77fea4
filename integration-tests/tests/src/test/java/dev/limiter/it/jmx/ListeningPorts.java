package dev.limiter.it.jmx;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The TCP ports one process listens on, read from Linux's procfs: the socket inodes among the process's open
 * file descriptors, matched against the LISTEN rows of the {@code tcp} and {@code tcp6} tables of its network
 * namespace. Not a port scan or a machine-wide {@code netstat}: other test runs share this machine, and only
 * the inodes tie a listening socket to the process that holds it.
 */
final class ListeningPorts {

    /** {@code st} column of a listening socket ({@code TCP_LISTEN}) in {@code /proc/net/tcp}. */
    private static final String LISTEN = "0A";
    private static final String SOCKET_LINK = "socket:[";

    private ListeningPorts() {
    }

    /** Whether this machine has the procfs tables this class reads (Linux). */
    static boolean supported() {
        return Files.isReadable(Path.of("/proc/self/net/tcp")) && Files.isDirectory(Path.of("/proc/self/fd"));
    }

    /** The local ports of every listening TCP socket (IPv4 or IPv6) that process {@code pid} holds open. */
    static Set<Integer> of(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        Set<String> inodes = socketInodes(proc.resolve("fd"));
        Set<Integer> ports = new TreeSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = proc.resolve("net").resolve(table);
            if (Files.exists(file)) { // no tcp6 without IPv6
                addListening(file, inodes, ports);
            }
        }
        return ports;
    }

    private static void addListening(Path table, Set<String> inodes, Set<Integer> ports) {
        List<String> lines = read(table);
        // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length > 9 && fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
                String local = fields[1]; // hex address:hex port
                ports.add(Integer.parseInt(local.substring(local.lastIndexOf(':') + 1), 16));
            }
        }
    }

    private static Set<String> socketInodes(Path fds) {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(fds)) {
            for (Path fd : stream) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(SOCKET_LINK) && target.endsWith("]")) {
                        inodes.add(target.substring(SOCKET_LINK.length(), target.length() - 1));
                    }
                } catch (NoSuchFileException closedSinceListed) {
                    // the process closed this descriptor between the listing and the read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the open files of " + fds.getParent(), e);
        }
        return inodes;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
