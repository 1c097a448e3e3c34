package org.bftws.axis2.standalone;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** Where the nodes' ports come from. */
class LoopbackPortsTest {

    @Test
    void eachTestJvmHasASliceOfItsOwnBelowTheKernelsEphemeralRange() {
        assertArrayEquals(new int[] {20_000, 23_999}, LoopbackPorts.range("fork-1"));
        assertArrayEquals(new int[] {24_000, 27_999}, LoopbackPorts.range("fork-2"));
        assertArrayEquals(new int[] {28_000, 31_999}, LoopbackPorts.range("fork-3"));
        assertArrayEquals(new int[] {20_000, 32_767}, LoopbackPorts.range(null));
        assertArrayEquals(new int[] {40_000, 40_010}, LoopbackPorts.range("40000-40010"));
        for (String bad : new String[] {"fork-4", "10-20", "3000-2000", "x", "1-2-3"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoopbackPorts.range(bad));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
    }

    @Test
    void thePortsHandedOutAreInTheRangeAndNeverTheSameTwice() throws Exception {
        int[] range = LoopbackPorts.range(System.getProperty(LoopbackPorts.PROPERTY));
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            int port = LoopbackPorts.next();
            assertTrue(port >= range[0] && port <= range[1], port + " outside " + range[0] + "-" + range[1]);
            seen.add(port);
        }
        assertEquals(100, seen.size());
    }
}
