package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A node behind the view gets the new-view again through the status exchange, but not in the first status periods
 * after the view was entered: then the node behind is most likely still checking the copy it got, and a second one
 * queued on the channel delays the votes sent after it (docs/recovery.md).
 */
class NewViewResendTest {

    private static final int TIMEOUT = 50;
    private static final int STATUS_PERIOD = 10;

    @Test
    void aNewViewIsResentToANodeBehindOnlyAfterTheHoldOffThenStill() {
        TestCluster c = new TestCluster(Membership.configurationI(1),
                new ReplicaOptions(50, 100, 1, 0, 4, TIMEOUT, STATUS_PERIOD, 10, 8));
        c.down[0] = true;
        c.send(TestCluster.request("c", 1));
        List<Long> sentToNode3 = new ArrayList<>();
        // node 3 never receives a new-view: it stays behind, and its peers see it stuck in their status exchange
        c.tickAndDeliver(TIMEOUT + 6 * STATUS_PERIOD, f -> {
            if (f.message() instanceof NewView && f.to() == 3) {
                sentToNode3.add(c.tick);
                return false;
            }
            return true;
        });
        assertEquals(1, c.nodes[1].view());
        long entered = c.tick - (c.replica(1).now - c.replica(1).viewChanges().installedAt());
        assertEquals(entered, sentToNode3.get(0), "the new-view itself, when node 1 entered view 1");
        assertTrue(sentToNode3.size() >= 2, "resent to the node behind: " + sentToNode3);
        long firstResend = sentToNode3.get(1);
        assertTrue(firstResend - entered >= StatusResponder.NEW_VIEW_HOLD_OFF * STATUS_PERIOD,
                "resent at tick " + firstResend + ", the view was entered at tick " + entered);
    }
}
