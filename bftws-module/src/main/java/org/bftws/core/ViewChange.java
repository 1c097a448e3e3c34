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

    /**
     * SHA-256 over every field, embedded messages included (each length-prefixed): two view-changes have the same
     * digest only when they are the same value, so a new-view that names this digest names exactly this content.
     */
    public Digest digest() {
        Digest.Builder b = Digest.builder().add("ViewChange").add(newView).add(stableSeq).add(stableDigest).add(sender);
        b.add(stableProof.size());
        for (Checkpoint c : stableProof) {
            b.add(c.seq()).add(c.state()).add(c.sender());
        }
        b.add(prepared.size());
        for (PreparedCertificate c : prepared) {
            PrePrepare pp = c.prePrepare();
            b.add(pp.view()).add(pp.seq()).add(pp.sender()).add(pp.batch().time()).add(pp.batch().size());
            for (RequestRef r : pp.batch().requests()) {
                b.add(r.id().client()).add(r.id().number()).add(r.digest());
            }
            b.add(c.prepares().size());
            for (Prepare p : c.prepares()) {
                b.add(p.view()).add(p.seq()).add(p.digest()).add(p.sender());
            }
        }
        return b.build();
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
