package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The filter for nested requests from a replicated caller (paper 3.4). */
class NestedRequestFilterTest {

    private static Request copy(long number, String body) {
        return new Request(new RequestId("caller-group", number), body.getBytes());
    }

    @Test
    void aNestedRequestIsAcceptedAfterPPlusOneIdenticalCopiesFromDistinctCallerReplicas() {
        NestedRequestFilter f = new NestedRequestFilter(1, Set.of(0, 1, 2, 3), 16);
        assertNull(f.add(0, copy(1, "x")));
        assertNull(f.add(0, copy(1, "x")), "the same caller replica twice counts once");
        assertEquals(copy(1, "x"), f.add(2, copy(1, "x")));
        assertNull(f.add(3, copy(1, "x")), "accepted once");
    }

    @Test
    void aFaultyCallerReplicaSendingFirstCannotCrowdOutTheCorrectRequest() {
        NestedRequestFilter f = new NestedRequestFilter(1, Set.of(0, 1, 2, 3), 16);
        assertNull(f.add(3, copy(1, "malformed")));
        assertNull(f.add(0, copy(1, "good")));
        assertEquals(copy(1, "good"), f.add(1, copy(1, "good")));
    }

    @Test
    void copiesFromNodesOutsideTheCallerGroupDoNotCount() {
        NestedRequestFilter f = new NestedRequestFilter(1, Set.of(0, 1, 2, 3), 16);
        assertNull(f.add(7, copy(1, "x")));
        assertNull(f.add(0, copy(1, "x")));
        assertEquals(copy(1, "x"), f.add(1, copy(1, "x")));
    }

    @Test
    void numbersTheGroupExecutedCountAsAcceptedAndTheWindowMovesPastThem() {
        NestedRequestFilter f = new NestedRequestFilter(1, Set.of(0, 1, 2, 3), 16);
        assertNull(f.add(0, copy(40, "x")), "a restarted replica counting from 1 would refuse 40: beyond its window");
        assertNull(f.add(1, copy(40, "x")));
        f.acceptedThrough(39);
        assertEquals(true, f.isAccepted(39));
        assertEquals(true, f.counts(40));
        assertNull(f.add(0, copy(40, "x")));
        assertEquals(copy(40, "x"), f.add(1, copy(40, "x")), "counted from the executed prefix");
        f.acceptedThrough(12);
        assertEquals(true, f.counts(41), "an older executed number does not move the window back");
        assertNull(f.add(2, copy(38, "x")), "no copy is counted for an executed number");
    }
}
