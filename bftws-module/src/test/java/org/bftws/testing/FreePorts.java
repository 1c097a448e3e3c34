package org.bftws.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loopback ports for the nodes a test starts, each free when handed out and handed out once per test JVM.
 *
 * <p>A port the kernel gives a probe ({@code new ServerSocket(0)}) comes from its ephemeral range, the range it also
 * gives every outgoing connection and every other test JVM's probes: between the probe's close and the node's bind,
 * another JVM's probe or connection can take it ("Address already in use"). These ports come from below that range
 * (Linux's default starts at 32768), where the kernel hands out nothing by itself, and each Surefire fork from a
 * slice of its own ({@code bftws.test.fork}, the fork's number, set by the POM): two forks never hand out the same
 * port, and one fork never hands out a port twice before it has gone through its whole slice. Each port is still
 * probed, so one that another program listens on is skipped.
 */
public final class FreePorts {

    private static final int BASE = 12_000;
    private static final int SLICE = 5_000;
    private static final int FORKS = 4;
    private static final int FIRST = BASE + SLICE * (Math.floorMod(Integer.getInteger("bftws.test.fork", 1) - 1,
            FORKS));
    private static final AtomicInteger NEXT = new AtomicInteger();

    private FreePorts() {
    }

    /** One free port. */
    public static int one() throws IOException {
        return take(1)[0];
    }

    /** {@code n} distinct free ports. */
    public static int[] take(int n) throws IOException {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            ports[i] = next();
        }
        return ports;
    }

    /** {@code n} distinct free ports, none of them in {@code taken}. */
    public static int[] avoiding(int n, Collection<Integer> taken) throws IOException {
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            int p = next();
            while (taken.contains(p)) {
                p = next();
            }
            ports[i] = p;
        }
        return ports;
    }

    private static int next() throws IOException {
        for (int tries = 0; tries < SLICE; tries++) {
            int port = FIRST + Math.floorMod(NEXT.getAndIncrement(), SLICE);
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return probe.getLocalPort();
            } catch (IOException inUse) {
                // another program listens there (or a node of this JVM still does): the next one
            }
        }
        throw new IOException("no free loopback port in " + FIRST + ".." + (FIRST + SLICE - 1));
    }
}
