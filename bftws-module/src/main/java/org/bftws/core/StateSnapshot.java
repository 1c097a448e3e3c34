package org.bftws.core;

import java.util.List;

/**
 * A stable checkpoint for state transfer: the checkpointed state's bytes ({@link CheckpointState#encode()}) and the
 * checkpoint messages that prove its digest stable. The receiver checks both; it trusts neither the sender nor the
 * bytes.
 */
public record StateSnapshot(long seq, byte[] state, List<Checkpoint> proof, int sender) implements Message {

    public StateSnapshot {
        proof = List.copyOf(proof);
        state = state.clone();
    }

    /** A copy: messages are immutable values. */
    @Override
    public byte[] state() {
        return state.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateSnapshot s && seq == s.seq && sender == s.sender && proof.equals(s.proof)
                && java.util.Arrays.equals(state, s.state);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(seq) * 31 + sender;
    }

    public int size() {
        return state.length;
    }

    @Override
    public String toString() {
        return "StateSnapshot(n" + seq + " " + state.length + " bytes from " + sender + ")";
    }
}
