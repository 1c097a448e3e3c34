package org.bftws.core;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * A stable checkpoint for state transfer: the checkpointed state's bytes ({@link CheckpointState#encode()}) and the
 * checkpoint messages that prove its digest stable. The receiver checks both; it trusts neither the sender nor the
 * bytes.
 *
 * <p>A value like every message, but its state can be megabytes: it is copied at most once, when it comes from a
 * caller that may keep the array ({@link #StateSnapshot(long, byte[], List, int)}), and never when read. Readers get a
 * read-only view ({@link #state()}); the core's own code reads the array itself and never writes it. (It was copied
 * on construction and on every read: three or four 10 MB copies per transfer.)
 */
public final class StateSnapshot implements Message {

    private final long seq;
    private final byte[] state;
    private final List<Checkpoint> proof;
    private final int sender;

    /** A snapshot of a copy of {@code state}: the caller may go on using its array. */
    public StateSnapshot(long seq, byte[] state, List<Checkpoint> proof, int sender) {
        this(seq, proof, sender, state.clone());
    }

    private StateSnapshot(long seq, List<Checkpoint> proof, int sender, byte[] owned) {
        this.seq = seq;
        this.state = owned;
        this.proof = List.copyOf(proof);
        this.sender = sender;
    }

    /**
     * A snapshot of bytes the caller has just made (decoded from the wire, encoded from a checkpoint) and hands over:
     * no copy. The caller must never write the array afterwards (it may go on reading it).
     */
    public static StateSnapshot handingOver(long seq, byte[] fresh, List<Checkpoint> proof, int sender) {
        return new StateSnapshot(seq, proof, sender, fresh);
    }

    public long seq() {
        return seq;
    }

    /** The state's bytes as a read-only view (no copy; each call has its own position). */
    public ByteBuffer state() {
        return ByteBuffer.wrap(state).asReadOnlyBuffer();
    }

    /** A copy of the state's bytes, for a caller that must change them (a test, the simulator's tamperer). */
    public byte[] stateCopy() {
        return state.clone();
    }

    /** The array itself, for the core, which only reads it (digest, decoding, keeping it as the stable state). */
    byte[] sharedBytes() {
        return state;
    }

    public List<Checkpoint> proof() {
        return proof;
    }

    @Override
    public int sender() {
        return sender;
    }

    public int size() {
        return state.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateSnapshot s && seq == s.seq && sender == s.sender && proof.equals(s.proof)
                && Arrays.equals(state, s.state);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(seq) * 31 + sender;
    }

    @Override
    public String toString() {
        return "StateSnapshot(n" + seq + " " + state.length + " bytes from " + sender + ")";
    }
}
