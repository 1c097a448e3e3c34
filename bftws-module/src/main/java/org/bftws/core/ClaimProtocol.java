package org.bftws.core;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The claims exchange of one agreement node (docs/protocol.md, "Requests authenticated with MACs"), the rules of
 * which {@link RequestClaims} states: a node claims every gated request it authenticates to the other agreement
 * nodes; the primary proposes a gated request once 2f others claimed it too; a request that waits longer than
 * {@link #slowAfter} ticks is claimed again with a signature by every node that authenticated it; a node that holds
 * f+1 signed claims for a waiting request forwards them to the primary and only then counts the request against it.
 * Claims lost on the way are made good by claiming waiting requests again every status period. Part of
 * {@link Replica}, like {@link NormalCase}.
 */
final class ClaimProtocol {

    private final Replica replica;
    private final RequestClaims claims;
    private final NormalCase normal;
    private final RequestIntake intake;
    private final ReplicaOptions options;
    private final Outbox out;
    private final RequestStore requests;
    /** Ticks a gated request waits unordered before the nodes that authenticated it sign their claims. */
    private final int slowAfter;
    private final int scanPeriod;
    private long lastScan;
    private long lastReclaim;

    ClaimProtocol(Replica replica, RequestClaims claims, NormalCase normal, RequestIntake intake) {
        this.replica = replica;
        this.claims = claims;
        this.normal = normal;
        this.intake = intake;
        this.options = replica.options;
        this.out = replica.out;
        this.requests = replica.requests;
        this.slowAfter = Math.max(options.fetchTimeout(), options.viewChangeTimeout() / 4);
        this.scanPeriod = Math.max(1, Math.min(slowAfter, options.statusPeriod()) / 4);
    }

    private boolean gated(RequestRef ref) {
        return replica.admissions.gated(ref.id());
    }

    /** The adapter authenticated gated request {@code r} here for the first time: claim it to the others. */
    void authenticated(Request r) {
        out.toAgreementNodes(new Claim(List.of(r.ref()), replica.id()));
    }

    /** Whether the primary may put {@code r} in a batch now. */
    boolean proposable(Request r) {
        return !gated(r.ref()) || claims.proposable(r.ref());
    }

    /**
     * From when waiting request {@code r} counts against the primary: its arrival, or for a gated request the moment
     * this node forwarded its certificate to this view's primary (-1: not yet).
     */
    long waitingSince(Request r, long arrivedAt) {
        return gated(r.ref()) ? claims.suspectableSince(r.ref(), replica.view()) : arrivedAt;
    }

    void onClaim(Claim c) {
        if (!wellFormed(c.refs(), c)) {
            return;
        }
        boolean any = false;
        int refused = 0;
        for (RequestRef ref : c.refs()) { // each on its own: one refused claim takes none of the others with it
            if (relevant(ref)) {
                if (claims.claimed(ref, c.sender())) {
                    any = true;
                } else {
                    refused++;
                }
            }
        }
        if (refused > 0) {
            out.drop(c, refused + " of its claims: node " + c.sender() + " has too many claims outstanding here");
        }
        if (any) {
            normal.vouchesArrived();
            normal.tryPropose();
        }
    }

    void onSignedClaim(SignedClaim sc) {
        if (!wellFormed(sc.refs(), sc)) {
            return;
        }
        List<RequestRef> certified = new ArrayList<>();
        for (RequestRef ref : sc.refs()) {
            if (relevant(ref) && claims.signedClaim(ref, sc)) {
                certified.add(ref);
            }
        }
        for (RequestRef ref : certified) {
            Request body = requests.body(ref.digest());
            if (body != null) {
                intake.admit(body, false); // certified: this node vouches for it now, also as a request to order
            }
        }
        normal.vouchesArrived();
        normal.tryPropose();
    }

    private boolean wellFormed(List<RequestRef> refs, Message m) {
        if (refs.isEmpty() || refs.size() > 2 * options.batchMaxSize()) {
            out.drop(m, "a claim names between 1 and " + 2 * options.batchMaxSize() + " requests");
            return false;
        }
        return true;
    }

    /** A claim for a gated request its client has not moved past, within the client's window. */
    private boolean relevant(RequestRef ref) {
        long committed = requests.committedNumber(ref.id().client());
        return gated(ref) && ref.id().number() > committed
                && ref.id().number() <= committed + options.maxPendingPerClient();
    }

    /**
     * A node asked for bodies this node holds: it may lack their authenticity rather than the bodies, so this node
     * also tells it which of them it authenticated and passes on the signed claims it holds for them.
     */
    void vouchFor(List<Request> bodies, int asker) {
        List<RequestRef> own = new ArrayList<>();
        Set<SignedClaim> signed = new LinkedHashSet<>();
        for (Request r : bodies) {
            RequestClaims.Entry e = gated(r.ref()) ? claims.get(r.ref()) : null;
            if (e != null) {
                if (e.authenticatedHere) {
                    own.add(r.ref());
                }
                signed.addAll(e.signed.values());
            }
        }
        if (!own.isEmpty()) {
            out.toNode(asker, new Claim(own, replica.id()));
        }
        signed.forEach(sc -> out.toNode(asker, sc));
    }

    /** The slow path and claiming again (see the class comment); scans every few ticks. */
    void onTick() {
        long now = replica.now;
        if (now - lastScan < scanPeriod) {
            return;
        }
        lastScan = now;
        boolean reclaim = now - lastReclaim >= options.statusPeriod();
        if (reclaim) {
            lastReclaim = now;
        }
        List<RequestRef> sign = new ArrayList<>();
        List<RequestRef> claimAgain = new ArrayList<>();
        Set<SignedClaim> forward = new LinkedHashSet<>();
        int primary = replica.membership.primary(replica.view());
        // every waiting request, not only each client's next one: a node that lags a commit behind still holds the
        // requests that follow, and their certificate is what lets a node ahead of it suspect a primary that stalls
        requests.forEachWaiting((r, arrived) -> {
            RequestClaims.Entry e = gated(r.ref()) ? claims.get(r.ref()) : null;
            if (e == null) {
                return;
            }
            if (e.authenticatedHere && now - arrived >= slowAfter && (!e.signedHere || reclaim)) {
                sign.add(r.ref());
            }
            if (reclaim && e.authenticatedHere && now - arrived >= options.statusPeriod()) {
                claimAgain.add(r.ref());
            }
            if (claims.certified(e) && e.forwardedInView != replica.view() && !replica.viewChanging) {
                if (primary != replica.id()) {
                    forward.addAll(claims.certificate(r.ref()));
                }
                e.forwardedInView = replica.view();
                e.suspectableSince = now;
            }
        });
        for (List<RequestRef> chunk : chunks(sign)) {
            SignedClaim sc = new SignedClaim(chunk, replica.id());
            for (RequestRef ref : chunk) {
                claims.get(ref).signedHere = true;
                if (claims.signedClaim(ref, sc)) {
                    Request body = requests.body(ref.digest());
                    if (body != null) {
                        intake.admit(body, false);
                    }
                }
            }
            out.toAgreementNodes(sc);
        }
        for (List<RequestRef> chunk : chunks(claimAgain)) {
            out.toAgreementNodes(new Claim(chunk, replica.id()));
        }
        forward.forEach(sc -> out.toNode(primary, sc));
        fetchCertifiedBodies(now);
    }

    /** Certified requests next in their client's sequence whose bodies this node lacks: asked of their signers. */
    private void fetchCertifiedBodies(long now) {
        for (RequestClaims.Entry e : claims.entries()) {
            RequestRef ref = e.ref;
            if (!claims.certified(e) || requests.body(ref.digest()) != null
                    || ref.id().number() != requests.committedNumber(ref.id().client()) + 1
                    || (e.bodyAskedAt >= 0 && now - e.bodyAskedAt < options.fetchTimeout())) {
                continue;
            }
            e.bodyAskedAt = now;
            for (int signer : e.signed.keySet()) {
                if (signer != replica.id()) {
                    out.toNode(signer, new FetchRequests(List.of(ref.digest()), replica.id()));
                }
            }
        }
    }

    private List<List<RequestRef>> chunks(List<RequestRef> refs) {
        List<List<RequestRef>> chunks = new ArrayList<>();
        int max = 2 * options.batchMaxSize();
        for (int i = 0; i < refs.size(); i += max) {
            chunks.add(refs.subList(i, Math.min(refs.size(), i + max)));
        }
        return chunks;
    }
}
