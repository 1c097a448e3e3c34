package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Restarts from the data directory: nothing executed is lost, and a restarted node never votes twice in a view. */
class DurableRecoveryTest {

    private static void run(TestCluster c, String client, int from, int to) {
        for (int n = from; n <= to; n++) {
            c.send(TestCluster.request(client, n));
            c.deliverAll();
        }
    }

    @Test
    void aGroupStoppedAndRestartedFromItsDataDirectoriesHasTheSameStateAndGoesOn() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 10);
        long before = c.appState(0);
        for (int i = 0; i < 4; i++) {
            c.down[i] = true;
        }
        for (int i = 0; i < 4; i++) {
            c.restartFromDisk(i);
        }
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertEquals(10, c.nodes[i].lastExecuted(), "node " + i + " re-executed everything after its checkpoint");
            assertEquals(before, c.appState(i), "node " + i + " has the state it had before");
        }
        c.send(TestCluster.request("c", 11));
        c.tickAndDeliver(200);
        for (int i = 0; i < 4; i++) {
            assertEquals(11, c.nodes[i].lastExecuted(), "node " + i + " goes on after the restart");
            assertEquals(c.appState(0), c.appState(i));
        }
    }

    @Test
    void aRestartedNodeMovesPastEveryViewItAnnouncedBeforeVotingAgain() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 2);
        c.down[0] = true;
        c.send(TestCluster.request("c", 3));
        c.tickAndDeliver(120);
        int view = c.nodes[1].view();
        assertTrue(view >= 1);
        c.down[1] = true;
        c.restartFromDisk(1);
        assertTrue(((Replica) c.nodes[1]).isViewChanging(), "the restarted node does not take part in view " + view);
        assertTrue(c.viewChangesStarted.stream().anyMatch(e -> e[1] == 1 && e[2] == view + 1));
    }

    @Test
    void theDataDirectoryKeepsTheStableCheckpointWithItsStateAndOnlyTheBatchesAfterIt() {
        TestCluster c = TestCluster.configurationI();
        run(c, "c", 1, 9);
        DurableState disk = DurableState.of(c.disks.get(3));
        assertEquals(8, disk.checkpoint().seq());
        assertTrue(disk.checkpoint().state() != null, "the checkpoint's state is on disk");
        assertEquals(1, disk.committed().size(), "only batches after the checkpoint are kept");
    }
}
