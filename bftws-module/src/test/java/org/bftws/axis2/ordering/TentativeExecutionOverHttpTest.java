package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.voting.VotingCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tentative execution over the real stack: replicas answer once a batch is prepared, with the bftws:Tentative header
 * under their MACs, and the client decides on 2f+1 such replies of one view (docs/protocol.md, "Tentative execution").
 */
class TentativeExecutionOverHttpTest {

    @TempDir
    Path dir;

    private static String tentativeProtocol() {
        return BftTestGroup.protocol(4, "2s").replace("/>", " tentativeExecution=\"true\"/>");
    }

    private static VotingCounters counters(ServiceClient client) {
        return BftwsNode.of(client.getServiceContext().getConfigurationContext()).voting().counters();
    }

    private static long kept(BftTestGroup g, int i) {
        return g.node(i).replica().counters().getOrDefault("tentative executions kept", 0L);
    }

    @Test
    void afterTheFirstCheckpointCallsAreDecidedOnTentativeRepliesAndTheReplicasKeepThoseExecutions() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", tentativeProtocol())) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 12; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"), "exactly once, in order");
            }
            VotingCounters c = counters(client);
            assertTrue(c.tentative.get() >= 2L * 4, "tentative replies were counted (under their MACs): " + c);
            assertEquals(0, c.dropped.get(), "no reply refused: the Tentative header is covered by the MAC " + c);
            int keeping = 0;
            for (int i = 0; i < 4; i++) {
                keeping += kept(g, i) > 0 ? 1 : 0;
            }
            assertTrue(keeping >= 3, "at least 2f+1 replicas ran prepared batches tentatively and kept them");
            String s0 = ConfigurationIGroupTest.waitForCount(g, 0, 12);
            for (int i = 1; i < 4; i++) {
                assertEquals(s0, ConfigurationIGroupTest.waitForCount(g, i, 12), "replica " + i + "'s state");
            }
        }
    }

    @Test
    void withABackupStoppedTheOtherThreeStillAnswerEveryCall() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", tentativeProtocol())) {
            ServiceClient client = g.client();
            for (int i = 1; i <= 5; i++) {
                BftTestGroup.call(client, BftTestGroup.append("v" + i));
            }
            g.stop(3);
            for (int i = 6; i <= 12; i++) {
                OMElement reply = BftTestGroup.call(client, BftTestGroup.append("v" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(reply, "count"));
            }
            String s0 = ConfigurationIGroupTest.waitForCount(g, 0, 12);
            assertEquals(s0, ConfigurationIGroupTest.waitForCount(g, 1, 12));
            assertEquals(s0, ConfigurationIGroupTest.waitForCount(g, 2, 12));
        }
    }
}
