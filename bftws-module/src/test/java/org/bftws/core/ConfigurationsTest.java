package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Roles: Configuration II's agreement-only nodes and Configuration III's execution nodes. */
class ConfigurationsTest {

    @Test
    void inConfigurationIIOnlyTheTwoFPlusOneExecutingNodesExecuteAndAnswer() {
        TestCluster c = new TestCluster(Membership.configurationII(1), TestCluster.options(2));
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll();
        for (int i = 0; i < 3; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i));
        }
        assertTrue(c.executedIds(3).isEmpty(), "the agreement-only node never delivers requests");
        assertEquals(1, c.committed.get(3).size(), "but it takes part in ordering");
        assertTrue(c.replies.stream().noneMatch(rep -> rep.sender() == 3));
    }

    @Test
    void inConfigurationIIIAgreementNodesOrderAndExecutionNodesExecuteAndAnswer() {
        TestCluster c = new TestCluster(Membership.configurationIII(1), TestCluster.options(2));
        Request r = TestCluster.request("c", 1);
        c.send(r);
        c.deliverAll();
        for (int i = 0; i < 4; i++) {
            assertTrue(c.executedIds(i).isEmpty(), "agreement node " + i + " executed");
        }
        for (int i = 4; i < 7; i++) {
            assertEquals(List.of(r.id()), c.executedIds(i), "execution node " + i);
        }
        assertEquals(3, c.replies.size());
    }

    @Test
    void anExecutionNodeExecutesABatchOnlyOnceFPlusOneAgreementNodesSentIt() {
        TestCluster c = new TestCluster(Membership.configurationIII(1), TestCluster.options(2));
        Request r = TestCluster.request("c", 1);
        Batch b = new Batch(List.of(r.ref()));
        c.inject(4, new CommittedBatch(0, 1, b, List.of(r), 0));
        assertTrue(c.executedIds(4).isEmpty(), "one agreement node may be lying");
        c.inject(4, new CommittedBatch(0, 1, b, List.of(r), 0));
        assertTrue(c.executedIds(4).isEmpty(), "the same node twice still counts once");
        c.inject(4, new CommittedBatch(0, 1, b, List.of(r), 2));
        assertEquals(List.of(r.id()), c.executedIds(4));
    }

    @Test
    void aCommittedBatchWhoseRequestsDoNotMatchItsDigestsIsRefused() {
        TestCluster c = new TestCluster(Membership.configurationIII(1), TestCluster.options(2));
        Request r = TestCluster.request("c", 1);
        Request other = TestCluster.request("c", 2);
        c.inject(4, new CommittedBatch(0, 1, new Batch(List.of(r.ref())), List.of(other), 0));
        assertTrue(c.droppedSomething(4, "do not match its batch"));
    }

    @Test
    void aGroupNeedsThreeFPlusOneAgreementNodesAndTwoFPlusOneExecutors() {
        assertThrows(IllegalArgumentException.class, () -> new Membership(1, List.of(Role.AGREE_EXECUTE, Role.AGREE_EXECUTE, Role.AGREE_EXECUTE)));
        assertThrows(IllegalArgumentException.class, () -> new Membership(1, List.of(Role.AGREE, Role.AGREE, Role.AGREE, Role.AGREE, Role.EXECUTE)));
        assertEquals(3, Membership.configurationI(1).quorum());
        assertEquals(3, Membership.configurationI(1).checkpointQuorum());
        assertEquals(2, Membership.configurationIII(1).checkpointQuorum());
    }
}
