package org.bftws.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Requests that must pass this node's own admission before it votes for them (paper 3.4): a caller group's nested
 * requests, on a virtual sequence, are ordered only once p+1 caller replicas sent identical copies, and a backup must
 * not take the primary's word for that. The adapter's gate counts the copies; a request of a gated client that the
 * adapter hands to {@link Node#onRequest} is admitted (the adapter hands over nothing else of such a client), while a
 * body of one that another node relayed, in answer to a fetch, is not. A backup prepares a batch only when every gated
 * request in it is admitted here, or when the batch comes with proof that correct nodes checked it (a new view's
 * re-proposal, which rests on a prepared certificate; 2f matching prepares; a commit quorum).
 */
final class LocalAdmissions {

    private final Predicate<String> gatedClient;
    /** Digests of gated requests admitted here. */
    private final Set<Digest> admitted = new HashSet<>();

    /** @param gatedClient whether a client (sequence) id is one whose requests need local admission */
    LocalAdmissions(Predicate<String> gatedClient) {
        this.gatedClient = gatedClient;
    }

    boolean gated(RequestId id) {
        return gatedClient.test(id.client());
    }

    /** The adapter's gate admitted {@code r} (it came in through {@link Node#onRequest}). */
    void admit(Request r) {
        if (gated(r.id())) {
            admitted.add(r.digest());
        }
    }

    /** The gated requests of {@code b} that were not admitted here (empty: this node may vote for {@code b}). */
    List<Digest> notAdmitted(Batch b) {
        List<Digest> missing = new ArrayList<>(0);
        for (RequestRef ref : b.requests()) {
            if (gated(ref.id()) && !admitted.contains(ref.digest())) {
                missing.add(ref.digest());
            }
        }
        return missing;
    }

    /** Forgets admissions of requests whose bodies the store let go (they are ordered and out of every slot). */
    void collectGarbage(Predicate<Digest> bodyKept) {
        admitted.removeIf(d -> !bodyKept.test(d));
    }
}
