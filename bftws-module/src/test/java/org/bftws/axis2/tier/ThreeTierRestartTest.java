package org.bftws.axis2.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.TestNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The 3-tier echo when a replica restarts with nothing (paper 3.4 with PBFT's state transfer). Checkpoints every 8
 * requests and a WS-RM window of 16, so that a replica that restarts installs a checkpoint with nested calls behind
 * it, and the callers' nested numbers lie far beyond a fresh window. After it caught up, the restarted replica takes
 * part in nested calls again: the callee replicas refuse none of its copies (before, a caller replica numbered its
 * nested calls from 1 again, and a callee replica's gate counted copies from 1 again and refused everything beyond
 * its window, for good).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class ThreeTierRestartTest {

    private Path dir;
    private TwoGroups groups;
    private ServiceClient client;
    private String previousWindow;

    @BeforeAll
    void start() throws Exception {
        previousWindow = System.setProperty("bftws.window", "16");
        dir = Files.createTempDirectory("three-tier-restart");
        groups = new TwoGroups(dir, -1, null, " checkpointInterval=\"8\" watermarkWindow=\"16\"");
        client = groups.client();
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (groups != null) {
                groups.close();
            }
        } finally {
            if (previousWindow == null) {
                System.clearProperty("bftws.window");
            } else {
                System.setProperty("bftws.window", previousWindow);
            }
            try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void echoes(String prefix, int count) throws Exception {
        for (int k = 0; k < count; k++) {
            OMElement reply = TestNodes.call(client, TestNodes.echo(prefix + k));
            assertEquals(List.of(prefix + k), ThreeTierEchoTest.items(reply));
        }
    }

    /** Waits until {@code node} executed as far as replica 0 of its group ({@code first}). */
    private static void awaitCaughtUp(BftwsNode node, BftwsNode first) throws InterruptedException {
        for (int t = 0; t < 600; t++) {
            long own = node.replica().manager().lastExecuted();
            if (own > 0 && own >= first.replica().manager().lastExecuted()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the restarted replica did not catch up: it executed through "
                + node.replica().manager().lastExecuted() + ", replica 0 through "
                + first.replica().manager().lastExecuted());
    }

    /** Waits until the four relays executed through the same sequence number twice in a row (the group is idle). */
    private void awaitRelaysIdle() throws InterruptedException {
        long previous = -1;
        for (int t = 0; t < 600; t++) {
            long first = groups.relay(0).replica().manager().lastExecuted();
            boolean same = true;
            for (int i = 1; i < 4; i++) {
                same &= groups.relay(i).replica().manager().lastExecuted() == first;
            }
            if (same && first == previous) {
                return;
            }
            previous = same ? first : -1;
            Thread.sleep(100);
        }
        throw new AssertionError("the relays did not settle on one last executed number");
    }

    private long refusedByBackends() {
        long refused = 0;
        for (int i = 0; i < 4; i++) {
            refused += groups.backend(i).counters().refused.get();
        }
        return refused;
    }

    @Test
    @Order(1)
    void aCallerReplicaThatRestartsNumbersItsNextNestedCallAsTheGroupDoesAndNoCopyOfItIsRefused() throws Exception {
        echoes("a", 20);
        groups.restart(3);
        echoes("b", 20);
        awaitCaughtUp(groups.relay(3), groups.relay(0));
        assertTrue(groups.relay(3).replica().manager().counters().getOrDefault("state transfers", 0L) > 0,
                "relay3 installed a checkpoint taken after nested calls");

        // relay0 may itself trail its group: sample relay3's count once every relay has executed the last "b" echo
        awaitRelaysIdle();
        long refused = refusedByBackends();
        long executed = ThreeTierEchoTest.executed(groups.relay(3));
        echoes("c", 10);
        // a call returns on f+1 replies: relay3 (and relay0, which awaitCaughtUp compares with) may still be executing
        // the last one, so wait for relay3's count itself, then check it is exactly one execution per request
        for (int t = 0; t < 600 && ThreeTierEchoTest.executed(groups.relay(3)) - executed < 10; t++) {
            Thread.sleep(50);
        }
        awaitCaughtUp(groups.relay(3), groups.relay(0));
        assertEquals(10, ThreeTierEchoTest.executed(groups.relay(3)) - executed, "relay3 executed each request");
        assertEquals(refused, refusedByBackends(), "no backend refused a nested copy, relay3's included");
    }

    @Test
    @Order(2)
    void aCalleeReplicaThatRestartsCountsNestedCopiesFromWhatItExecutedAndRefusesNone() throws Exception {
        groups.restart(4 + 3);
        echoes("d", 20);
        awaitCaughtUp(groups.backend(3), groups.backend(0));
        assertTrue(groups.backend(3).replica().manager().counters().getOrDefault("state transfers", 0L) > 0);

        long refused = groups.backend(3).counters().refused.get();
        echoes("e", 10);
        awaitCaughtUp(groups.backend(3), groups.backend(0));
        assertEquals(refused, groups.backend(3).counters().refused.get(),
                "backend3 counted every copy of the nested calls, numbered far beyond a fresh window of 16");
    }
}
