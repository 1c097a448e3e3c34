package org.bftws.axis2.standalone;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The loopback ports {@link NodeServer#freePorts} hands out: to a node told to listen on port 0, to the tools for the
 * nodes they start, to the tests for theirs. A port the kernel gives a probe ({@code new ServerSocket(0)})
 * comes from its ephemeral range, which also serves every outgoing connection: between the probe and the node's bind,
 * a connection of another process (a group of eight JVMs dialling each other makes many) can take it, and the node
 * cannot listen. These ports come from below that range (Linux's default starts at 32768), where the kernel hands out
 * nothing by itself: from {@code -Dbftws.ports=FROM-TO} when set, or {@code -Dbftws.ports=fork-N} (what the build
 * gives its N-th test JVM, N from 1 to 3: a slice of 4,000 ports of its own, which the JVMs its tests start are given
 * too), else from 20000-32767. A process starts at a place its id picks in the range, so that two tools started
 * together rarely meet; each port is probed (one another program listens on is skipped) and handed out once per
 * process until the range wraps.
 */
public final class LoopbackPorts {

    public static final String PROPERTY = "bftws.ports";
    private static final int[] RANGE = range(System.getProperty(PROPERTY));
    private static final AtomicInteger NEXT = new AtomicInteger(
            (int) Math.floorMod(ProcessHandle.current().pid() * 7919L, (long) (RANGE[1] - RANGE[0] + 1)));

    private LoopbackPorts() {
    }

    /** A free loopback port, not handed out before by this process. */
    static int next() throws IOException {
        int size = RANGE[1] - RANGE[0] + 1;
        for (int tries = 0; tries < size; tries++) {
            int port = RANGE[0] + Math.floorMod(NEXT.getAndIncrement(), size);
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return probe.getLocalPort();
            } catch (IOException inUse) {
                // another program listens there: the next one
            }
        }
        throw new IOException("no free loopback port in " + RANGE[0] + "-" + RANGE[1]);
    }

    /** {@code FROM-TO}, or the default range when {@code spec} is null; anything else is refused. */
    static int[] range(String spec) {
        if (spec == null || spec.isBlank()) {
            return new int[] {20_000, 32_767};
        }
        if (spec.matches("fork-[123]")) {
            int from = 20_000 + 4_000 * (Integer.parseInt(spec.substring(5)) - 1);
            return new int[] {from, from + 3_999};
        }
        String[] parts = spec.trim().split("-");
        try {
            int from = Integer.parseInt(parts[0]);
            int to = Integer.parseInt(parts[1]);
            if (parts.length == 2 && 1024 <= from && from <= to && to <= 65_535) {
                return new int[] {from, to};
            }
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            // refused below
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + spec + ": must be FROM-TO (two ports 1024-65535) "
                + "or fork-N (N 1 to 3)");
    }
}
