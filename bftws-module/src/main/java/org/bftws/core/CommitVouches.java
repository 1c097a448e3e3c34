package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Committed batches vouched for by agreement nodes: a batch counts as committed at a sequence number once f+1
 * distinct agreement nodes sent the same one (at least one of them is correct, and a correct node vouches only for
 * what committed). Execution nodes of Configuration III learn every batch this way; an agreement node that fell
 * behind (it missed votes, or stopped voting for a view change) catches up this way without needing 2f+1 commits.
 */
final class CommitVouches {

    private final Membership membership;
    private final TreeMap<Long, Map<Integer, CommittedBatch>> votes = new TreeMap<>();

    CommitVouches(Membership membership) {
        this.membership = membership;
    }

    /** Why {@code cb} cannot count, or null after counting it. */
    String add(CommittedBatch cb) {
        if (!membership.isAgreementNode(cb.sender())) {
            return "committed batches come from agreement nodes";
        }
        List<RequestRef> refs = cb.batch().requests();
        if (refs.size() != cb.requests().size()) {
            return "its requests do not match its batch";
        }
        for (int i = 0; i < refs.size(); i++) {
            if (!refs.get(i).equals(cb.requests().get(i).ref())) {
                return "its requests do not match its batch";
            }
        }
        votes.computeIfAbsent(cb.seq(), s -> new TreeMap<>()).putIfAbsent(cb.sender(), cb);
        return null;
    }

    /**
     * The batch f+1 agreement nodes vouch for at {@code seq}, or null. Its view is the lowest among f+1 of the
     * vouchers, so a Byzantine voucher cannot inflate it.
     */
    CommittedBatch decided(long seq) {
        Map<Integer, CommittedBatch> atSeq = votes.get(seq);
        if (atSeq == null) {
            return null;
        }
        Map<Digest, List<CommittedBatch>> byDigest = new TreeMap<>();
        for (CommittedBatch cb : atSeq.values()) {
            byDigest.computeIfAbsent(cb.batch().digest(), d -> new ArrayList<>()).add(cb);
        }
        int needed = membership.weakQuorum();
        for (List<CommittedBatch> same : byDigest.values()) {
            if (same.size() >= needed) {
                int[] views = same.stream().mapToInt(CommittedBatch::view).sorted().toArray();
                CommittedBatch first = same.get(0);
                return new CommittedBatch(views[views.length - needed], seq, first.batch(), first.requests(), first.sender());
            }
        }
        return null;
    }

    void discardUpTo(long seq) {
        votes.headMap(seq, true).clear();
    }
}
