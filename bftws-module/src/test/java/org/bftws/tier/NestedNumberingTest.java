package org.bftws.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.bftws.rm.AckRanges;
import org.bftws.rm.OutboundSequence;
import org.junit.jupiter.api.Test;

/** A caller replica's numbering of its group's nested calls, as checkpoints carry it (paper 3.4). */
class NestedNumberingTest {

    final NestedNumbering numbering = new NestedNumbering();

    static OutboundSequence calls(String id, int n) {
        OutboundSequence s = new OutboundSequence(id, "uuid");
        for (int i = 0; i < n; i++) {
            s.nextMessageNumber();
        }
        return s;
    }

    @Test
    void aCheckpointHoldsTheLastNumberOfEveryVirtualSequenceUsed() {
        numbering.created(calls("urn:seq:b", 3));
        numbering.created(calls("urn:seq:a", 5));
        numbering.created(calls("urn:seq:unused", 0));
        assertEquals(Map.of("urn:seq:a", 5L, "urn:seq:b", 3L), numbering.numbers());
        assertEquals(List.of("urn:seq:a", "urn:seq:b"), List.copyOf(numbering.numbers().keySet()));
    }

    @Test
    void aReplicaThatRestartedContinuesFromTheInstalledCountOnceItCreatesTheSequence() {
        numbering.resume(Map.of("urn:seq:a", 40L));
        assertEquals(Map.of("urn:seq:a", 40L), numbering.numbers(), "the count is kept until the sequence exists");
        OutboundSequence s = new OutboundSequence("urn:seq:a", "uuid");
        numbering.created(s);
        assertEquals(41, s.nextMessageNumber(), "the group's next nested call, not number 1");
    }

    @Test
    void aReplicaThatInstallsAStateTakesTheGroupsCountOverItsOwn() {
        OutboundSequence ahead = calls("urn:seq:a", 9);
        OutboundSequence notInState = calls("urn:seq:b", 2);
        numbering.created(ahead);
        numbering.created(notInState);
        numbering.resume(Map.of("urn:seq:a", 6L));
        assertEquals(7, ahead.nextMessageNumber());
        assertEquals(1, notInState.nextMessageNumber(), "the group had made no call on it");
    }

    @Test
    void resumingForgetsAcknowledgementsOfNumbersThisReplicaUsedDifferentlyFromTheGroup() {
        OutboundSequence s = calls("urn:seq:a", 9);
        s.acknowledged("backend0", List.of(new AckRanges.Range(1, 9)));
        s.resumeAfter(6);
        assertTrue(s.isAcknowledged("backend0", 6));
        assertFalse(s.isAcknowledged("backend0", 7));
        assertEquals(7, s.nextMessageNumber());
    }
}
