package org.bftws.core;

import java.util.List;

/**
 * The sender moves to {@code newView}. It carries the sender's stable checkpoint with its proof, and a prepared
 * certificate for every sequence number above it that the sender prepared, so the new primary can re-propose them.
 */
public record ViewChange(int newView, long stableSeq, Digest stableDigest, List<Checkpoint> stableProof,
                         List<PreparedCertificate> prepared, int sender) implements Message {

    public ViewChange {
        stableProof = List.copyOf(stableProof);
        prepared = List.copyOf(prepared);
    }

    @Override
    public boolean transferable() {
        return true;
    }

    @Override
    public String toString() {
        return "ViewChange(to v" + newView + " h" + stableSeq + " " + prepared.size() + " prepared from " + sender + ")";
    }
}
