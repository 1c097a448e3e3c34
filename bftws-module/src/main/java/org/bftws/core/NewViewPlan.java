package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What a set of 2f+1 view-changes implies for the new view (PBFT's computation of O): start from the highest stable
 * checkpoint any of them proves (minS), and for every sequence number up to the highest prepared one (maxS)
 * re-propose the batch of the highest-view prepared certificate, or a null batch where none was prepared. The new
 * primary computes it to build its new-view; backups compute it again to check that the new-view follows.
 */
record NewViewPlan(long minS, Digest stableDigest, List<Checkpoint> stableProof, long maxS, List<PrePrepare> prePrepares) {

    static NewViewPlan compute(Membership membership, int view, List<ViewChange> viewChanges) {
        ViewChange highest = viewChanges.get(0);
        for (ViewChange vc : viewChanges) {
            if (vc.stableSeq() > highest.stableSeq()) {
                highest = vc;
            }
        }
        long minS = highest.stableSeq();
        TreeMap<Long, PreparedCertificate> best = new TreeMap<>();
        for (ViewChange vc : viewChanges) {
            for (PreparedCertificate c : vc.prepared()) {
                if (c.seq() > minS) {
                    PreparedCertificate current = best.get(c.seq());
                    if (current == null || c.view() > current.view()) {
                        best.put(c.seq(), c);
                    }
                }
            }
        }
        long maxS = best.isEmpty() ? minS : best.lastKey();
        int primary = membership.primary(view);
        List<PrePrepare> prePrepares = new ArrayList<>();
        for (long n = minS + 1; n <= maxS; n++) {
            PreparedCertificate c = best.get(n);
            prePrepares.add(new PrePrepare(view, n, c == null ? Batch.NULL : c.prePrepare().batch(), primary));
        }
        return new NewViewPlan(minS, highest.stableDigest(), highest.stableProof(), maxS, prePrepares);
    }
}
