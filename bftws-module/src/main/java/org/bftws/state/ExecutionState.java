package org.bftws.state;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What an executing replica puts into a checkpoint as "the application state" (the core digests and transfers it
 * without looking inside): the service's {@code get_state} result, and how far the replica has numbered its group's
 * virtual sequences for nested calls (paper 3.4; {@code NestedNumbering}). Both are results of executing the same
 * requests in the same order, so correct replicas produce the same bytes; a replica that installs a checkpoint gets
 * both back, and its next nested call carries the number the group's next one has.
 *
 * <pre>
 *   "\0BFTWS-x1"  count:int32  (sequenceId:modified-UTF-8  lastNumber:int64){count}  serviceState:bytes to the end
 * </pre>
 *
 * A state without the leading marker is the service's state alone (written before the numbering was checkpointed,
 * e.g. in a data directory from an earlier version): it has no numbering. A service's state is the bytes of its
 * {@code get_state} reply element, XML, which cannot begin with a NUL byte, so the two cannot be confused.
 */
public final class ExecutionState {

    private static final byte[] MARKER = "\0BFTWS-x1".getBytes(StandardCharsets.US_ASCII);

    /** The two parts: nested numbering by sequence identifier, and the service's state. */
    public record Parts(SortedMap<String, Long> nestedNumbering, byte[] serviceState) {
    }

    private ExecutionState() {
    }

    public static byte[] encode(Map<String, Long> nestedNumbering, byte[] serviceState) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(serviceState.length + 64 + 96 * nestedNumbering.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MARKER);
            out.writeInt(nestedNumbering.size());
            for (Map.Entry<String, Long> e : new TreeMap<>(nestedNumbering).entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.write(serviceState);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    /** Splits a checkpoint's application state; IllegalArgumentException when it is marked but malformed. */
    public static Parts decode(byte[] state) {
        if (state.length < MARKER.length || !Arrays.equals(state, 0, MARKER.length, MARKER, 0, MARKER.length)) {
            return new Parts(new TreeMap<>(), state);
        }
        ByteArrayInputStream bytes = new ByteArrayInputStream(state, MARKER.length, state.length - MARKER.length);
        try (DataInputStream in = new DataInputStream(bytes)) {
            int count = in.readInt();
            if (count < 0 || count > bytes.available() / 10) {
                throw new IllegalArgumentException("execution state names " + count + " nested sequences, which "
                        + "its length cannot hold");
            }
            SortedMap<String, Long> numbering = new TreeMap<>();
            for (int i = 0; i < count; i++) {
                String id = in.readUTF();
                long last = in.readLong();
                if (last < 0 || numbering.put(id, last) != null) {
                    throw new IllegalArgumentException("execution state: nested sequence " + id
                            + (last < 0 ? " has a negative number" : " appears twice"));
                }
            }
            return new Parts(numbering, Arrays.copyOfRange(state, state.length - bytes.available(), state.length));
        } catch (IOException e) {
            throw new IllegalArgumentException("execution state is cut short: " + e.getMessage(), e);
        }
    }
}
