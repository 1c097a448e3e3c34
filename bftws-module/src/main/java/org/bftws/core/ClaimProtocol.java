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
 * Claims lost on the way are made good by claiming a waiting request again, with its signed claim if it has one (the
 * same object: a claim is signed once), a status period after it arrived, then after two and four more, and no more
 * ({@link #CLAIM_RETRIES}). A request this node authenticated that has neither 2f+1 claimants nor a certificate after
 * {@link #abandonAfter} ticks is abandoned: its waiting entry, body and claims are forgotten, so a faulty client whose
 * authenticator verifies at too few nodes costs a bounded number of claims and no memory for long. That is safe: an
 * unproven request never counted against the primary, claims only ever add vouchers, and a client that still wants
 * the request sends it again (a retransmission is admitted afresh); a certificate that forms later (a correct node
 * can prove it) still fetches the body from a signer. Part of {@link Replica}, like {@link NormalCase}.
 */
final class ClaimProtocol {

    private final Replica replica;
    private final RequestClaims claims;
    private final NormalCase normal;
    private final RequestIntake intake;
    private final ReplicaOptions options;
    private final Outbox out;
    private final RequestStore requests;
    /** Times a node claims a waiting request again (after 1, 3 and 7 status periods), to make good lost claims. */
    static final int CLAIM_RETRIES = 3;

    /** Ticks a gated request waits unordered before the nodes that authenticated it sign their claims. */
    private final int slowAfter;
    /** Ticks after which a request authenticated here with neither 2f+1 claimants nor a certificate is abandoned. */
    private final long abandonAfter;
    private final int scanPeriod;
    private long lastScan;

    ClaimProtocol(Replica replica, RequestClaims claims, NormalCase normal, RequestIntake intake) {
        this.replica = replica;
        this.claims = claims;
        this.normal = normal;
        this.intake = intake;
        this.options = replica.options;
        this.out = replica.out;
        this.requests = replica.requests;
        this.slowAfter = Math.max(options.fetchTimeout(), options.viewChangeTimeout() / 4);
        this.abandonAfter = abandonAfter(options);
        this.scanPeriod = Math.max(1, Math.min(slowAfter, options.statusPeriod()) / 4);
    }

    /**
     * When a gated request authenticated here is abandoned without 2f+1 claimants or a certificate: well after its
     * claims, their retries (7 status periods) and the slow path, max(4 x the slow-path wait, 2 x the view-change
     * timeout).
     */
    static long abandonAfter(ReplicaOptions options) {
        long slow = Math.max(options.fetchTimeout(), options.viewChangeTimeout() / 4);
        return Math.max(Math.max(4 * slow, 2L * options.viewChangeTimeout()),
                ((1L << CLAIM_RETRIES) - 1) * options.statusPeriod() + slow);
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

    /** The slow path, claiming again and abandoning (see the class comment); scans every few ticks. */
    void onTick() {
        long now = replica.now;
        if (now - lastScan < scanPeriod) {
            return;
        }
        lastScan = now;
        List<RequestRef> sign = new ArrayList<>();
        List<RequestRef> claimAgain = new ArrayList<>();
        Set<SignedClaim> signAgain = new LinkedHashSet<>();
        Set<SignedClaim> forward = new LinkedHashSet<>();
        List<Request> abandon = new ArrayList<>();
        int primary = replica.membership.primary(replica.view());
        // every waiting request, not only each client's next one: a node that lags a commit behind still holds the
        // requests that follow, and their certificate is what lets a node ahead of it suspect a primary that stalls
        requests.forEachWaiting((r, arrived) -> {
            RequestClaims.Entry e = gated(r.ref()) ? claims.get(r.ref()) : null;
            if (e == null) {
                return;
            }
            boolean certified = claims.certified(e);
            if (e.authenticatedHere && !certified && !claims.stronglyClaimed(e) && now - arrived >= abandonAfter) {
                abandon.add(r);
                return;
            }
            if (e.authenticatedHere && e.ownSigned == null && now - arrived >= slowAfter) {
                sign.add(r.ref());
            }
            if (e.authenticatedHere && e.reclaims < CLAIM_RETRIES
                    && now - arrived >= ((2L << e.reclaims) - 1) * options.statusPeriod()) {
                e.reclaims++;
                claimAgain.add(r.ref());
                if (e.ownSigned != null) {
                    signAgain.add(e.ownSigned);
                }
            }
            if (certified && e.forwardedInView != replica.view() && !replica.viewChanging) {
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
                claims.get(ref).ownSigned = sc;
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
        signAgain.forEach(out::toAgreementNodes);
        forward.forEach(sc -> out.toNode(primary, sc));
        abandon(abandon);
        fetchCertifiedBodies(now);
    }

    /**
     * Forgets gated requests authenticated here that nobody corroborated in time (see the class comment), except
     * those a slot of the log names (a faulty primary may have proposed one; its body must stay for that slot).
     */
    private void abandon(List<Request> unproven) {
        if (unproven.isEmpty()) {
            return;
        }
        Set<Digest> named = replica.log.namedAbove(replica.checkpoints.stableSeq());
        for (Request r : unproven) {
            if (named.contains(r.digest())) {
                continue;
            }
            requests.abandon(r);
            claims.forget(r.ref());
            out.drop(r, "abandoned: neither " + replica.membership.quorum()
                    + " claimants nor a certificate after " + abandonAfter + " ticks");
        }
    }

    /**
     * Certified requests next in their client's sequence whose bodies this node lacks: asked of their signers. Also
     * forgets what others claimed of requests this node holds no body of, once they stayed unproven (neither 2f+1
     * claimants nor a certificate) for {@link #abandonAfter} ticks and no slot names them: their claimants abandoned
     * them by then too.
     */
    private void fetchCertifiedBodies(long now) {
        List<RequestRef> stale = new ArrayList<>(0);
        for (RequestClaims.Entry e : claims.entries()) {
            RequestRef ref = e.ref;
            if (e.seenAt < 0) {
                e.seenAt = now;
            }
            boolean certified = claims.certified(e);
            // (one authenticated here whose body waits is abandoned by the scan of waiting requests instead)
            if (!certified && !claims.stronglyClaimed(e) && now - e.seenAt >= abandonAfter
                    && (!e.authenticatedHere || requests.body(ref.digest()) == null)) {
                stale.add(ref);
                continue;
            }
            if (!certified || requests.body(ref.digest()) != null
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
        if (!stale.isEmpty()) {
            Set<Digest> named = replica.log.namedAbove(replica.checkpoints.stableSeq());
            stale.stream().filter(ref -> !named.contains(ref.digest())).forEach(claims::forget);
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
