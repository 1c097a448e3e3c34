package org.bftws.core;

import java.util.HashSet;
import java.util.Set;

/**
 * The checks a view-change must pass before it counts: its stable checkpoint is proven, and every prepared
 * certificate is complete (the right primary's pre-prepare plus 2f matching prepares from distinct backups), lies in
 * the sender's watermark window, and predates the new view. Signatures were checked by the adapter; these are the
 * checks on content a Byzantine node could still get wrong.
 */
final class ViewChangeValidator {

    private final Membership membership;
    private final ReplicaOptions options;
    private final Checkpoints checkpoints;

    ViewChangeValidator(Membership membership, ReplicaOptions options, Checkpoints checkpoints) {
        this.membership = membership;
        this.options = options;
        this.checkpoints = checkpoints;
    }

    /** Why {@code vc} is invalid, or null. */
    String problem(ViewChange vc) {
        if (!membership.isAgreementNode(vc.sender())) {
            return "view-change from node " + vc.sender() + ", which does not order";
        }
        if (!checkpoints.proves(vc.stableSeq(), vc.stableDigest(), vc.stableProof())) {
            return "its stable checkpoint " + vc.stableSeq() + " is not proven";
        }
        Set<Long> seqs = new HashSet<>();
        for (PreparedCertificate c : vc.prepared()) {
            String p = certificateProblem(vc, c);
            if (p != null) {
                return p;
            }
            if (!seqs.add(c.seq())) {
                return "two prepared certificates for " + c.seq();
            }
        }
        return null;
    }

    private String certificateProblem(ViewChange vc, PreparedCertificate c) {
        PrePrepare pp = c.prePrepare();
        if (pp.view() >= vc.newView() || pp.view() < 0) {
            return "certificate for " + pp.seq() + " is from view " + pp.view() + ", not before " + vc.newView();
        }
        if (pp.sender() != membership.primary(pp.view())) {
            return "certificate for " + pp.seq() + " has a pre-prepare not from the primary of view " + pp.view();
        }
        if (pp.seq() <= vc.stableSeq() || pp.seq() > vc.stableSeq() + options.watermarkWindow()) {
            return "certificate for " + pp.seq() + " lies outside the sender's watermarks";
        }
        if (pp.batch().hasDuplicateIds() || pp.batch().size() > options.batchMaxSize()) {
            return "certificate for " + pp.seq() + " has a malformed batch";
        }
        Set<Integer> backups = new HashSet<>();
        Digest d = pp.digest();
        for (Prepare p : c.prepares()) {
            if (p.view() != pp.view() || p.seq() != pp.seq() || !p.digest().equals(d)) {
                return "certificate for " + pp.seq() + " has a prepare that does not match its pre-prepare";
            }
            if (!membership.isAgreementNode(p.sender()) || p.sender() == pp.sender()) {
                return "certificate for " + pp.seq() + " has a prepare from node " + p.sender();
            }
            backups.add(p.sender());
        }
        if (backups.size() < membership.prepareQuorum()) {
            return "certificate for " + pp.seq() + " has " + backups.size() + " prepares, needs " + membership.prepareQuorum();
        }
        return null;
    }
}
