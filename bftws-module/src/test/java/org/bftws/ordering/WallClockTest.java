package org.bftws.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WallClockTest {

    @Test
    void noOptionMeansNoOffset() {
        assertEquals(0, WallClock.offset(null));
        assertEquals(0, WallClock.offset(" "));
    }

    @Test
    void anOffsetIsWholeMillisecondsEitherWay() {
        assertEquals(7000, WallClock.offset("7000"));
        assertEquals(-3000, WallClock.offset(" -3000 "));
    }

    @Test
    void anOffsetThatIsNotANumberIsRefusedWithItsName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> WallClock.offset("7s"));
        assertTrue(e.getMessage().contains("-Dbftws.clock.offsetMillis") && e.getMessage().contains("'7s'"),
                e.getMessage());
    }

    @Test
    void withoutTheOptionItIsTheSystemClock() {
        long before = System.currentTimeMillis();
        long read = WallClock.millis();
        assertTrue(read >= before && read <= System.currentTimeMillis(), "read " + read);
    }
}
