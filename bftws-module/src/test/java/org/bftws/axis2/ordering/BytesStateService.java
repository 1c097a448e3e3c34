package org.bftws.axis2.ordering;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A POJO service whose state is a {@code byte[]} (Axis2's POJO mapping makes it base64Binary): appended text, in
 * order. Deployed behind RPCMessageReceiver by {@link PojoStateOperationsTest}.
 */
public class BytesStateService {

    private byte[] log = new byte[0];

    /** Appends {@code text} and a line break; returns the log's length in bytes. */
    public synchronized int append(String text) {
        byte[] add = (text + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] next = Arrays.copyOf(log, log.length + add.length);
        System.arraycopy(add, 0, next, log.length, add.length);
        log = next;
        return log.length;
    }

    public synchronized byte[] get_state() {
        return log.clone();
    }

    /** Replaces the log; refuses a state that is not UTF-8 text ending in a line break (or empty). */
    public synchronized int set_state(byte[] state) {
        if (state == null) {
            throw new IllegalArgumentException("no state");
        }
        if (state.length > 0 && state[state.length - 1] != '\n') {
            throw new IllegalArgumentException("the state does not end with a line break");
        }
        log = state.clone();
        return log.length;
    }
}
