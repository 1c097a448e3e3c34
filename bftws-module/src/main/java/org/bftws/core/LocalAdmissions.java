package org.bftws.core;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which requests must pass this node's own authentication before it votes for them, and whether they did. Gated are
 * a caller group's nested requests (paper 3.4: ordered only once p+1 caller replicas sent identical copies, which a
 * backup must not take the primary's word for) and, in a group whose clients authenticate requests with MACs, every
 * client's requests (a MAC authenticator convinces only the node whose entry verifies). The adapter authenticated a
 * request it hands to {@link Node#onRequest} (the adapter hands over nothing else of a gated client: a relayed copy
 * whose authentication fails here travels as a body in a {@link ForwardedRequests}). A backup prepares a batch only
 * when every gated request in it is admitted here (authenticated, or certified by f+1 signed claims) or vouched for by
 * f+1 nodes, or when the batch is a new view's re-proposal, which rests on a prepared certificate
 * ({@link RequestClaims}, {@link AdmissionWaits}).
 */
final class LocalAdmissions {

    private final Predicate<String> gatedClient;
    private final RequestClaims claims;

    /** @param gatedClient whether a client (sequence) id is one whose requests need local admission */
    LocalAdmissions(Predicate<String> gatedClient, RequestClaims claims) {
        this.gatedClient = gatedClient;
        this.claims = claims;
    }

    boolean gated(RequestId id) {
        return gatedClient.test(id.client());
    }

    /**
     * The adapter authenticated {@code r} here (it came in through {@link Node#onRequest}); true when {@code r} is
     * gated and this is news, i.e. this node should claim it to the others.
     */
    boolean admit(Request r) {
        return gated(r.id()) && claims.authenticatedHere(r.ref());
    }

    /** Whether this node itself vouches for {@code ref}: not gated, authenticated here, or certified. */
    boolean admitted(RequestRef ref) {
        return !gated(ref.id()) || claims.admitted(ref);
    }

    /** The gated requests of {@code b} that this node does not vouch for itself. */
    List<RequestRef> notAdmitted(Batch b) {
        List<RequestRef> missing = new ArrayList<>(0);
        for (RequestRef ref : b.requests()) {
            if (!admitted(ref)) {
                missing.add(ref);
            }
        }
        return missing;
    }
}
