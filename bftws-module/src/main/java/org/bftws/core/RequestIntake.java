package org.bftws.core;

import java.util.List;

/**
 * A client request reaching an agreement node, sent by the client itself ({@code direct}) or relayed by another node
 * with the client's signature: kept until it is ordered, taken as a body a pre-prepare awaits, handed on to the
 * execution-only nodes (Configuration III) when it is already ordered, or dropped with the reason. A caller group's
 * nested request counts as admitted only when this node's own gate sent it (paper 3.4, {@link LocalAdmissions}).
 */
final class RequestIntake {

    private final Replica replica;
    private final NormalCase normal;

    RequestIntake(Replica replica, NormalCase normal) {
        this.replica = replica;
        this.normal = normal;
    }

    void admit(Request r, boolean direct) {
        boolean gated = replica.admissions.gated(r.id());
        // a relayed gated body counts as a request only when f+1 signed claims certify it here (RequestClaims)
        boolean vouched = direct || (gated && replica.claims.certified(r.ref()));
        if (gated && !vouched) {
            // A relayed body of a gated request is no admission (one faulty caller replica may have signed a nested
            // one; a faulty client's MAC authenticator may verify at some nodes only): it may serve a slot that waits
            // for it, to execute a committed batch or to be held until its authentication arrives; it never waits for
            // ordering, so a primary never proposes it on another node's word.
            if (replica.requests.addAwaitedBody(r)) {
                normal.bodyArrived(r.digest());
            } else {
                replica.out.drop(r, "a relayed gated request is taken only as a body that a pre-prepare awaits");
            }
            return;
        }
        if (direct && r.id().number() > replica.requests.committedNumber(r.id().client())
                && replica.admissions.admit(r)) {
            // before the body counts as arrived, so a slot waiting for it can be prepared at once
            replica.claimProtocol.authenticated(r);
        }
        RequestStore.Admission a = gated ? addGated(r) : replica.requests.add(r, replica.now);
        switch (a) {
            case NEW -> {
                replica.pacing.arrived(r.id().client(), replica.now);
                normal.bodyArrived(r.digest());
            }
            case KNOWN -> normal.bodyArrived(r.digest());
            case DUPLICATE -> {
                if (replica.requests.addAwaitedBody(r)) {
                    normal.bodyArrived(r.digest());
                } else if (direct && replica.membership.hasExecutionOnlyNodes()) {
                    replica.out.toExecutionNodes(new ForwardedRequests(List.of(r), replica.id()));
                }
            }
            case TOO_FAR_AHEAD -> replica.out.drop(r, "too far ahead of its client's last ordered request");
            case TOO_MANY_VARIANTS -> { // an unproven variant, or every variant held is proven or in a slot
                // Still a body a pre-prepare may await (a nested request has a variant per caller replica's signature)
                if (replica.requests.addAwaitedBody(r)) {
                    normal.bodyArrived(r.digest());
                } else {
                    replica.out.drop(r, "its client sent too many different requests with this id");
                }
            }
        }
        if (gated && replica.requests.body(r.digest()) != null) {
            if (direct) {
                normal.admissionArrived(r);
            } else {
                normal.vouchesArrived(); // certified: nothing to ask for again
            }
        }
        normal.tryPropose();
    }

    /**
     * A gated request: when it is proven (certified, or claimed by 2f+1 nodes: a correct node authenticated it) and
     * its faulty client filled its id's variants, an unproven variant that no slot names makes room for it. So a
     * correct primary can always order a request whose certificate a backup forwarded to it, and a backup suspects
     * only a primary that ignores a proof it can use.
     */
    private RequestStore.Admission addGated(Request r) {
        RequestClaims claims = replica.claims;
        var named = new Object() { // what the log names, found only if a variant must make room
            java.util.Set<Digest> digests;

            boolean contains(Digest d) {
                if (digests == null) {
                    digests = replica.log.namedAbove(replica.checkpoints.stableSeq());
                }
                return digests.contains(d);
            }
        };
        RequestStore.Admission a = replica.requests.add(r, replica.now, claims::proven,
                ref -> !claims.proven(ref) && !named.contains(ref.digest()));
        for (RequestRef evicted : replica.requests.takeEvicted()) {
            claims.forget(evicted);
            replica.out.drop(evicted, "a variant nobody proved made room for a proven request with its id");
        }
        return a;
    }
}
