package org.bftws.ordering;

/**
 * The wall clock the ordering reads (what a primary stamps its batches with and a backup compares within
 * {@code clockSkewBound}, what the agreed time and so the expiry of client sequences follow): the system clock plus
 * a fixed offset in milliseconds from the JVM option {@code -Dbftws.clock.offsetMillis=N} (default 0).
 *
 * <p>The offset is a fault-injection knob: {@code ./bftws nemesis} starts one replica with it to give that replica a
 * clock that is off by N ms, within or beyond {@code clockSkewBound}, without touching the machine's clock (which
 * every replica on a test machine shares). A JVM option rather than a Java agent: the ordering reads the wall clock
 * in this one place, so an offset here is the whole of what a skewed clock changes for the module, and it needs no
 * byte-code rewriting. A deployment never sets it. The PBFT core itself reads no clock; it is told the time
 * ({@code Node.onClock}).
 */
final class WallClock {

    static final String OFFSET_PROPERTY = "bftws.clock.offsetMillis";
    private static final long OFFSET = offset(System.getProperty(OFFSET_PROPERTY));

    private WallClock() {
    }

    /** The wall clock in ms since the epoch, offset as the JVM option says. */
    static long millis() {
        return System.currentTimeMillis() + OFFSET;
    }

    /** The offset {@code value} (the property's text, or null) gives; a clear error for one that is not a number. */
    static long offset(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + OFFSET_PROPERTY + " must be a whole number of milliseconds "
                    + "(the replica's clock offset, e.g. 7000 or -3000), not '" + value + "'", e);
        }
    }
}
