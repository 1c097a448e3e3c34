package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.config.ReplicaChannelKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration I end to end: four replicas order requests to the group endpoint with PBFT over real HTTP, their PBFT
 * messages on the binary replica channel (the default) or as SOAP over WS-RM (the paper's design).
 */
class ConfigurationIGroupTest {

    @TempDir
    Path dir;

    @Test
    void fourReplicasOrderAppendsThroughTheGroupEndpointAndEndInTheSameState() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "none", BftTestGroup.protocol(4, "2s"))) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 6; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            OMElement echo = BftTestGroup.call(client, BftTestGroup.echo("a", "b"));
            assertNotNull(echo);
            String first = g.state(0);
            for (int i = 1; i < 4; i++) {
                assertEquals(first, waitForState(g, i, first), "replica " + i);
            }
        }
    }

    @Test
    void concurrentClientsLeaveIdenticalOrderDependentStateOnAllReplicas() throws Exception {
        concurrentClients("none");
    }

    @Test
    void withTheMacProfileRepliasAuthenticateEachOtherWithHmacsAndOrderConcurrentClients() throws Exception {
        concurrentClients("mac");
    }

    @Test
    void withTheWssecProfileEveryMessageIsSignedAndConcurrentClientsAreOrdered() throws Exception {
        concurrentClients("wssec");
    }

    @Test
    void overTheBinaryChannelReplicasExchangeMacedFramesAndNoSoapBundles() throws Exception {
        try (BftTestGroup g = concurrentClients("mac", ReplicaChannelKind.BINARY)) {
            for (int i = 0; i < 4; i++) {
                Map<String, Long> c = g.node(i).replica().counters();
                assertTrue(c.get("PBFT channel frames sent") > 0, "replica " + i + ": " + c);
                assertTrue(c.get("PBFT channel frames received") > 0, "replica " + i + ": " + c);
                assertNull(c.get("PBFT bundles sent"), "replica " + i + " sent no SOAP bundle: " + c);
                assertTrue(c.keySet().stream().noneMatch(k -> k.startsWith("PBFT channel refused")), c.toString());
            }
        }
    }

    @Test
    void overTheSoapChannelTheReplicasOrderConcurrentClientsAsThePaperDesignedIt() throws Exception {
        try (BftTestGroup g = concurrentClients("mac", ReplicaChannelKind.SOAP)) {
            for (int i = 0; i < 4; i++) {
                Map<String, Long> c = g.node(i).replica().counters();
                assertTrue(c.get("PBFT bundles sent") > 0, "replica " + i + ": " + c);
                assertNull(c.get("PBFT channel frames sent"), "replica " + i + " has no binary channel: " + c);
            }
        }
    }

    @Test
    void garbageOnAReplicasChannelPortIsRefusedAndCountedWhileTheGroupGoesOnOrdering() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"))) {
            ServiceClient client = g.client();
            assertEquals("1", BftTestGroup.child(BftTestGroup.call(client, BftTestGroup.append("a")), "count"));
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), g.channelPorts[1])) {
                s.setSoTimeout(20_000);
                s.getOutputStream().write("POST /axis2/services/BftControl HTTP/1.1\r\n\r\n".repeat(4)
                        .getBytes(StandardCharsets.US_ASCII));
                while (s.getInputStream().read() >= 0) {
                    // until replica1 closes it
                }
            }
            for (int i = 2; i <= 6; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            Map<String, Long> c = g.node(1).replica().counters();
            assertEquals(1L, c.get("PBFT channel refused: malformed handshake"), c.toString());
            assertEquals(0L, c.get("PBFT channel reconnects"), "its connections to the others stayed up: " + c);
        }
    }

    private void concurrentClients(String profile) throws Exception {
        concurrentClients(profile, ReplicaChannelKind.BINARY).close();
    }

    /** Four concurrent clients' appends end in the same order on every replica; the group is left running. */
    private BftTestGroup concurrentClients(String profile, ReplicaChannelKind channel) throws Exception {
        BftTestGroup g = BftTestGroup.start(dir, profile, BftTestGroup.protocol(4, "2s"), channel);
        try {
            for (int i = 0; i < 4; i++) {
                assertNotNull(g.node(i).replica(), "replica " + i + " runs PBFT");
            }
            int clients = 4;
            int each = 8;
            java.util.List<Thread> threads = new java.util.ArrayList<>();
            java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
            for (int c = 0; c < clients; c++) {
                ServiceClient client = g.client();
                int id = c;
                Thread t = new Thread(() -> {
                    try {
                        for (int i = 0; i < each; i++) {
                            BftTestGroup.call(client, BftTestGroup.append("c" + id + "-" + i));
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join(120_000);
            }
            assertEquals(java.util.List.of(), java.util.List.copyOf(failures));
            // A replica may still be executing the last requests when f+1 others answered: wait for all of them.
            String[] states = new String[4];
            for (int i = 0; i < 4; i++) {
                states[i] = waitForCount(g, i, clients * each);
            }
            for (int i = 1; i < 4; i++) {
                assertEquals(states[0], states[i], "replica " + i + " has the same order-dependent state");
            }
            return g;
        } catch (Exception | AssertionError e) {
            g.close();
            throw e;
        }
    }

    static String waitForCount(BftTestGroup g, int i, int count) throws Exception {
        String s = g.state(i);
        for (int t = 0; t < 200 && !s.endsWith("/" + count); t++) {
            Thread.sleep(50);
            s = g.state(i);
        }
        assertEquals(Integer.toString(count), s.substring(s.indexOf('/') + 1), "replica " + i + " executed everything");
        return s;
    }

    static String waitForState(BftTestGroup g, int i, String expected) throws Exception {
        String s = g.state(i);
        for (int t = 0; t < 100 && !s.equals(expected); t++) {
            Thread.sleep(50);
            s = g.state(i);
        }
        return s;
    }
}
