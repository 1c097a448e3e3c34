package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration I tolerates one faulty replica: wrong replies, a stopped backup, a stopped primary. */
class ConfigurationIFaultsTest {

    @TempDir
    Path dir;

    @Test
    void aReplicaThatReturnsWrongRepliesChangesNothingTheClientAccepts() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"), 2)) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 6; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            OMElement echo = BftTestGroup.call(client, BftTestGroup.echo("x", "y"));
            assertTrue(echo.toString().contains(">x<") && !echo.toString().contains("forged"), echo.toString());
        }
    }

    @Test
    void withOneBackupStoppedTheGroupStillAnswersAndTheOthersAgree() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"))) {
            ServiceClient client = g.client();
            BftTestGroup.call(client, BftTestGroup.append("before"));
            g.stop(3);
            for (int i = 2; i <= 6; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            String s0 = ConfigurationIGroupTest.waitForCount(g, 0, 6);
            assertEquals(s0, ConfigurationIGroupTest.waitForCount(g, 1, 6));
            assertEquals(s0, ConfigurationIGroupTest.waitForCount(g, 2, 6));
        }
    }

    @Test
    void withThePrimaryStoppedTheBackupsChangeViewAndTheGroupStillAnswers() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "1s"))) {
            ServiceClient client = g.client();
            BftTestGroup.call(client, BftTestGroup.append("before"));
            g.stop(0);
            for (int i = 2; i <= 5; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            for (int i = 1; i < 4; i++) {
                assertTrue(g.node(i).replica().manager().view() >= 1, "replica " + i + " left view 0");
            }
            String s1 = ConfigurationIGroupTest.waitForCount(g, 1, 5);
            assertEquals(s1, ConfigurationIGroupTest.waitForCount(g, 2, 5));
            assertEquals(s1, ConfigurationIGroupTest.waitForCount(g, 3, 5));
        }
    }

    @Test
    void aReplicaReportingAWrongCheckpointDigestIsOutvotedAndTheGroupGoesOn() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"), 3, WrongStateHandler.class,
                false)) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 13; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            for (int i = 0; i < 3; i++) {
                BftReplica r = g.node(i).replica();
                for (int t = 0; t < 100 && r.manager().stableCheckpoint() < 12; t++) {
                    Thread.sleep(50);
                }
                assertEquals(12, r.manager().stableCheckpoint(), "replica " + i + ": the three others agree without it");
                assertEquals(null, r.counters().get("diverged checkpoints"));
            }
            // The replica with the wrong state learns that its state is not the group's: it counts its own
            // checkpoint as diverged once the others' certificate outvotes it, or, when it fell behind (a loaded
            // machine), the group's stable checkpoint reaches it first by a state transfer.
            BftReplica wrong = g.node(3).replica();
            for (int t = 0; t < 200 && !learnedItDiverged(wrong); t++) {
                Thread.sleep(50);
            }
            assertTrue(learnedItDiverged(wrong), "the replica with the wrong state learns it diverged: "
                    + wrong.counters());
        }
    }

    private static boolean learnedItDiverged(BftReplica r) {
        return r.counters().getOrDefault("diverged checkpoints", 0L) >= 1
                || r.counters().getOrDefault("state transfers", 0L) >= 1;
    }
}
