package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class AckRangesTest {

    @Test
    void numbersArrivingOutOfOrderMergeIntoTheFewestRanges() {
        AckRanges a = new AckRanges();
        for (long n : new long[] {5, 1, 3, 2, 7}) {
            assertTrue(a.add(n));
        }
        assertEquals(List.of(new AckRanges.Range(1, 3), new AckRanges.Range(5, 5), new AckRanges.Range(7, 7)),
                a.ranges());
        assertEquals(List.of(4L, 6L), a.gaps());
        a.add(4);
        a.add(6);
        assertEquals(List.of(new AckRanges.Range(1, 7)), a.ranges());
        assertTrue(a.gaps().isEmpty());
        assertEquals(7, a.highest());
    }

    @Test
    void aNumberAddedTwiceIsReportedAsDuplicate() {
        AckRanges a = new AckRanges();
        assertTrue(a.add(1));
        assertFalse(a.add(1));
        assertThrows(IllegalArgumentException.class, () -> a.add(0));
    }

    @Test
    void anyPermutationEndsAsOneRange() {
        List<Long> numbers = new ArrayList<>();
        for (long n = 1; n <= 500; n++) {
            numbers.add(n);
        }
        Collections.shuffle(numbers, new Random(42));
        AckRanges a = new AckRanges();
        numbers.forEach(a::add);
        assertEquals(List.of(new AckRanges.Range(1, 500)), a.ranges());
    }

    @Test
    void removingEverythingAboveANumberCutsTheRangeThatSpansItAndDropsTheLaterOnes() {
        AckRanges a = new AckRanges();
        a.addRange(new AckRanges.Range(1, 4));
        a.addRange(new AckRanges.Range(6, 9));
        a.addRange(new AckRanges.Range(12, 12));
        a.removeAbove(7);
        assertEquals(List.of(new AckRanges.Range(1, 4), new AckRanges.Range(6, 7)), a.ranges());
        a.removeAbove(5);
        assertEquals(List.of(new AckRanges.Range(1, 4)), a.ranges());
        a.removeAbove(0);
        assertTrue(a.isEmpty());
    }
}
