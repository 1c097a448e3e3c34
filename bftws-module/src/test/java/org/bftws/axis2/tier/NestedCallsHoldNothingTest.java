package org.bftws.axis2.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.TestNodes;
import org.bftws.axis2.node.BftwsNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * In a fault-free 3-tier run nothing waits for a timeout: every copy of a nested request (one per relay replica, all
 * arriving at once) and every client request is answered when its group executes it, so no node's hold timeout
 * ever fires. Four real Axis2 relay replicas call four backend replicas over HTTP, at one client and at four; in the
 * {@code mac} profile the nested calls are MACed like a client's requests.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class NestedCallsHoldNothingTest {

    /**
     * How long the nodes may take to execute everything and answer every exchange: a deadline for a loaded machine,
     * not a measure (a copy left waiting leaves only through its 3 s hold timeout, which the counters then show).
     */
    private static final long DEADLINE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(120);

    private TwoGroups groups;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        groups = new TwoGroups(dir, -1, null);
    }

    @AfterAll
    void stop() throws Exception {
        if (groups != null) {
            groups.close();
        }
    }

    @Test
    @Order(1)
    void oneClientsNestedCallsLeaveNoCopyWaitingForItsHoldTimeout() throws Exception {
        ServiceClient client = groups.client();
        for (int k = 0; k < 40; k++) {
            call(client, "one-" + k);
        }
        assertNothingHeldUntilItsTimeout();
    }

    @Test
    @Order(2)
    void fourClientsNestedCallsLeaveNoCopyWaitingForItsHoldTimeout() throws Exception {
        List<ServiceClient> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            clients.add(groups.client());
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                ServiceClient client = clients.get(c);
                String name = "four-" + c + "-";
                done.add(threads.submit(() -> {
                    for (int k = 0; k < 20; k++) {
                        call(client, name + k);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            threads.shutdownNow();
        }
        assertNothingHeldUntilItsTimeout();
    }

    /** Records, for each message of the in-flow it sees after the Security phase, its body's name and header names. */
    static final class Headers extends org.apache.axis2.handlers.AbstractHandler {
        final List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());

        @Override
        public InvocationResponse invoke(org.apache.axis2.context.MessageContext mc) {
            org.apache.axiom.soap.SOAPEnvelope e = mc.getEnvelope();
            OMElement body = e.getBody() == null ? null : e.getBody().getFirstElement();
            StringBuilder line = new StringBuilder(body == null ? "-" : body.getLocalName());
            if (e.getHeader() != null) {
                for (java.util.Iterator<OMElement> it = e.getHeader().getChildElements(); it.hasNext(); ) {
                    line.append(' ').append(it.next().getLocalName());
                }
            }
            seen.add(line.toString());
            return InvocationResponse.CONTINUE;
        }

        /** What was seen of messages whose body is {@code body}. */
        List<String> of(String body) {
            synchronized (seen) {
                return seen.stream().filter(l -> l.startsWith(body + " ")).toList();
            }
        }
    }

    @Test
    @Order(3)
    void inTheMacProfileNestedRequestsAndTheirRepliesCarryHmacsAndNoSignature() throws Exception {
        Headers backend = new Headers();
        Headers relay = new Headers();
        afterSecurity(groups.nodes.get(4), backend);
        afterSecurity(groups.nodes.get(0), relay);
        call(groups.client(), "maced");
        List<String> requests = backend.of("echo");
        assertTrue(!requests.isEmpty(), "backend0 received nested echo requests");
        for (String r : requests) {
            assertTrue(r.contains(" RequestAuthenticator") && !r.contains(" Security"),
                    "a relay replica's copy is MACed for the backend's nodes, not WS-Security signed: " + r);
        }
        List<String> replies = relay.of("echoResponse");
        assertTrue(!replies.isEmpty(), "relay0 received the backend's replies");
        for (String r : replies) {
            assertEquals(4, r.split(" Authenticator", -1).length - 1,
                    "one reply carries an authenticator for each of the four relay replicas: " + r);
            assertTrue(!r.contains(" Security"), "and no signature: " + r);
        }
    }

    private static void afterSecurity(org.apache.axis2.context.ConfigurationContext node, Headers handler) {
        for (org.apache.axis2.engine.Phase phase : node.getAxisConfiguration().getInFlowPhases()) {
            if ("Security".equals(phase.getPhaseName())) {
                phase.addHandler(handler);
            }
        }
    }

    private static void call(ServiceClient client, String item) throws Exception {
        OMElement reply = TestNodes.call(client, TestNodes.echo(item));
        assertEquals(List.of(item), ThreeTierEchoTest.items(reply));
    }

    /**
     * Once every node executed everything, and no node holds an exchange or a nested copy any more, no node counted a
     * hold timeout (or let a held exchange go): a held exchange or copy leaves only by being answered or through one
     * of those, so nothing was left waiting until its timeout. Waits for the state, not for the timeout.
     */
    private void assertNothingHeldUntilItsTimeout() throws InterruptedException {
        awaitSameExecutionEverywhere();
        List<BftwsNode> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(groups.relay(i));
            nodes.add(groups.backend(i));
        }
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (nodes.stream().anyMatch(n -> held(n) > 0)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still held after everything was executed: " + heldEverywhere());
            }
            Thread.sleep(25);
        }
        for (int i = 0; i < 4; i++) {
            assertNothingLetGo(groups.relay(i), "relay" + i, "a client's request");
            assertNothingLetGo(groups.backend(i), "backend" + i, "a relay replica's nested copy");
        }
    }

    private static void assertNothingLetGo(BftwsNode node, String name, String what) {
        assertEquals(0, holdTimeouts(node), name + " held " + what + " until its timeout: " + node.counters());
        assertEquals(0, node.counters().heldExchangesLetGo.get() + node.counters().heldExchangesOverPartyLimit.get(),
                name + " let " + what + " go unanswered: " + node.counters());
    }

    /** Exchanges {@code node} holds for a reply, and nested copies its gate holds for their quorum. */
    private static int held(BftwsNode node) {
        return node.destination().heldExchanges() + (node.nested() == null ? 0 : node.nested().heldCopies());
    }

    private String heldEverywhere() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            b.append("relay").append(i).append(' ').append(held(groups.relay(i))).append(", backend").append(i)
                    .append(' ').append(held(groups.backend(i))).append("; ");
        }
        return b.toString();
    }

    private static long holdTimeouts(BftwsNode node) {
        return node.counters().holdTimeouts.get();
    }

    private void awaitSameExecutionEverywhere() throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            long relay = ThreeTierEchoTest.executed(groups.relay(0));
            long backend = ThreeTierEchoTest.executed(groups.backend(0));
            boolean same = true;
            StringBuilder seen = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                same &= ThreeTierEchoTest.executed(groups.relay(i)) == relay
                        && ThreeTierEchoTest.executed(groups.backend(i)) == backend;
                seen.append("relay").append(i).append(' ').append(ThreeTierEchoTest.executed(groups.relay(i)))
                        .append(", backend").append(i).append(' ')
                        .append(ThreeTierEchoTest.executed(groups.backend(i))).append("; ");
            }
            if (same) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the nodes did not all execute the same requests: " + seen);
            }
            Thread.sleep(25);
        }
    }
}
