package org.bftws.sim;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.bftws.core.Request;

/**
 * The replicated service in the simulator: a running hash over every request executed, so its replies and its state
 * depend on the order of execution; any disagreement between replicas shows up in replies and checkpoint digests.
 */
final class SimApplication {

    private long state = 0x5eed;
    private long count;

    byte[] execute(Request r) {
        state = Long.rotateLeft(state * 0x9E3779B97F4A7C15L ^ Arrays.hashCode(r.payload()), 17) ^ r.id().number();
        count++;
        return ByteBuffer.allocate(16).putLong(state).putLong(count).array();
    }

    byte[] getState() {
        return ByteBuffer.allocate(16).putLong(state).putLong(count).array();
    }

    /** How many requests had executed when {@code state} ({@link #getState}) was taken. */
    static long count(byte[] state) {
        return state.length < 16 ? -1 : ByteBuffer.wrap(state).getLong(8);
    }

    void setState(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        state = b.getLong();
        count = b.getLong();
    }
}
