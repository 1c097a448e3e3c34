package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Status-driven retransmission: what a node resends to a peer that reports itself stuck, and how often. */
class RetransmissionTest {

    /** Messages node {@code from} sends to {@code to} in answer to {@code status}; they are taken out of flight. */
    private static List<Message> answer(TestCluster c, int from, Status status) {
        c.inflightClear();
        c.inject(from, status);
        List<Message> sent = new ArrayList<>();
        c.inFlight.stream().filter(f -> f.to() == status.sender()).forEach(f -> sent.add(f.message()));
        c.inflightClear();
        return sent;
    }

    @Test
    void aStuckPeerIsAnsweredAtDoublingIntervalsAndAtOnceAgainWhenItMoves() {
        TestCluster c = TestCluster.configurationI();
        for (int n = 1; n <= 3; n++) {
            c.send(TestCluster.request("c", n), 0, 1, 2);
            c.deliverAll(f -> f.to() != 3);
        }
        Status stuck = new Status(0, 0, 0, 3);
        List<Integer> answered = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            if (!answer(c, 0, stuck).isEmpty()) {
                answered.add(i);
            }
        }
        // the first repeat is answered at once, then after 2, 4, 8 and at most 16 identical statuses
        assertEquals(List.of(2, 4, 8, 16, 32), answered.subList(0, 5));
        assertEquals(StatusResponder.MAX_BACKOFF, answered.get(answered.size() - 1) - answered.get(answered.size() - 2));

        assertTrue(answer(c, 0, new Status(0, 0, 1, 3)).isEmpty(), "a peer that moved is not stuck");
        assertFalse(answer(c, 0, new Status(0, 0, 1, 3)).isEmpty(), "and once stuck again it is answered at once");
    }

    @Test
    void aViewChangeIsResentOnlyToAPeerWhoseStatusSaysItLacksIt() {
        TestCluster c = TestCluster.configurationI();
        c.inject(0, new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(), 2));
        c.inject(0, new ViewChange(1, 0, Checkpoints.GENESIS, List.of(), List.of(), 3));
        assertTrue(c.replica(0).isViewChanging(), "node 0 joined the others towards view 1");

        Status holdsIt = new Status(0, true, 0, 0, 2, 1, Set.of(0, 2, 3));
        answer(c, 0, holdsIt);
        assertTrue(answer(c, 0, holdsIt).stream().noneMatch(m -> m instanceof ViewChange),
                "a peer holding node 0's view-change for its target view does not get it again");

        Status lacksIt = new Status(0, true, 0, 0, 3, 1, Set.of(2, 3));
        answer(c, 0, lacksIt);
        assertTrue(answer(c, 0, lacksIt).stream().anyMatch(m -> m instanceof ViewChange vc && vc.sender() == 0),
                "a peer lacking it gets it");

        Status beyond = new Status(0, true, 0, 0, 1, 2, Set.of(1));
        answer(c, 0, beyond);
        assertTrue(answer(c, 0, beyond).stream().noneMatch(m -> m instanceof ViewChange),
                "a peer already changing to a later view cannot use a view-change for view 1");
    }
}
