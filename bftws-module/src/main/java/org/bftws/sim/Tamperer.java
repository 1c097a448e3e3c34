package org.bftws.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Claim;
import org.bftws.core.Commit;
import org.bftws.core.Digest;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Reply;
import org.bftws.core.SignedClaim;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.StateSnapshot;
import org.bftws.core.ViewChange;

/**
 * What a Byzantine node does to the messages its (real) protocol engine wants to send: it rewrites them per
 * destination according to its {@link Behavior}s. It can sign anything in its own name, nothing in another's.
 */
final class Tamperer {

    /** One message to one destination, possibly held back. */
    record Addressed(int to, Message message, int extraDelay) {
    }

    private final int self;
    private final Set<Behavior> behaviors;
    private final Membership membership;
    private final int timeout;
    private final Random rnd;
    private final List<Message> remembered = new ArrayList<>();

    Tamperer(int self, Set<Behavior> behaviors, Membership membership, int timeout, Random rnd) {
        this.self = self;
        this.behaviors = behaviors;
        this.membership = membership;
        this.timeout = timeout;
        this.rnd = rnd;
    }

    /** Messages it received: material for replays. */
    void saw(Message m) {
        if (behaviors.contains(Behavior.REPLAY) && m.transferable() && remembered.size() < 500) {
            remembered.add(m);
        }
    }

    List<Addressed> tamper(Message m, List<Integer> destinations, int view) {
        List<Addressed> result = new ArrayList<>();
        boolean primary = membership.primary(view) == self;
        if (behaviors.contains(Behavior.SILENT_PRIMARY) && primary) {
            return result;
        }
        if (behaviors.contains(Behavior.WITHHELD_CLAIMS) && (m instanceof Claim || m instanceof SignedClaim)) {
            return result;
        }
        if (behaviors.contains(Behavior.LYING_CLAIMS) && m instanceof PrePrepare pp && rnd.nextInt(3) == 0) {
            // the same proposal to every backup, naming a request no client sent, whose forged body it relays: only
            // the rule that f+1 nodes vouch for a request before a correct backup prepares it keeps it unordered
            List<RequestRef> refs = new ArrayList<>(pp.batch().requests());
            refs.add(phantom());
            m = new PrePrepare(pp.view(), pp.seq(), new Batch(refs, pp.batch().time()), self);
        }
        for (int to : destinations) {
            if (behaviors.contains(Behavior.LYING_CLAIMS) && (m instanceof Claim || m instanceof SignedClaim)
                    && rnd.nextInt(3) == 0) {
                continue; // claims what it holds to some nodes only
            }
            Message changed = rewrite(m, to);
            if (!forgedBodies.isEmpty() && to < membership.size() && rnd.nextBoolean()) {
                // again and again: a slot awaits a body only once it holds the pre-prepare that names it
                result.add(new Addressed(to, new org.bftws.core.ForwardedRequests(List.copyOf(forgedBodies), self),
                        rnd.nextInt(3)));
            }
            int delay = behaviors.contains(Behavior.SLOW_PRIMARY) && changed instanceof PrePrepare ? timeout - 10 : 0;
            result.add(new Addressed(to, changed, Math.max(0, delay)));
        }
        if (behaviors.contains(Behavior.REPLAY) && !remembered.isEmpty() && rnd.nextInt(4) == 0) {
            remembered.add(m);
            Message old = remembered.get(rnd.nextInt(remembered.size()));
            result.add(new Addressed(rnd.nextInt(membership.size()), old, 0));
        }
        return result;
    }

    private Message rewrite(Message m, int to) {
        if (m instanceof PrePrepare pp) {
            if (behaviors.contains(Behavior.EQUIVOCATE) && to % 2 == 1) {
                return new PrePrepare(pp.view(), pp.seq(), alter(pp.batch()), self);
            }
            if (behaviors.contains(Behavior.PHANTOM_REQUESTS) && rnd.nextInt(3) == 0) {
                List<RequestRef> refs = new ArrayList<>(pp.batch().requests());
                refs.add(phantom());
                return new PrePrepare(pp.view(), pp.seq(), new Batch(refs, pp.batch().time()), self);
            }
        } else if (m instanceof Prepare p) {
            if (behaviors.contains(Behavior.WRONG_DIGESTS) && rnd.nextBoolean()) {
                return new Prepare(p.view(), p.seq(), randomDigest(), self);
            }
            if (behaviors.contains(Behavior.PHANTOM_REQUESTS) && rnd.nextInt(3) == 0) {
                return new Prepare(p.view(), p.seq(), new Batch(List.of(phantom())).digest(), self);
            }
        } else if (m instanceof Commit c) {
            if (behaviors.contains(Behavior.WRONG_DIGESTS) && rnd.nextBoolean()) {
                return new Commit(c.view(), c.seq(), randomDigest(), self);
            }
        } else if (m instanceof Checkpoint c) {
            if (behaviors.contains(Behavior.WRONG_CHECKPOINTS)) {
                return new Checkpoint(c.seq(), randomDigest(), self);
            }
        } else if (m instanceof Reply r) {
            if (behaviors.contains(Behavior.WRONG_REPLIES)) {
                byte[] wrong = new byte[r.result().length];
                rnd.nextBytes(wrong);
                return new Reply(r.request(), r.view(), wrong, self);
            }
        } else if (m instanceof StateSnapshot s) {
            if (behaviors.contains(Behavior.BAD_STATE) && s.size() > 0) {
                byte[] bad = s.stateCopy();
                bad[rnd.nextInt(bad.length)] ^= 1;
                return new StateSnapshot(s.seq(), bad, s.proof(), self);
            }
        } else if (m instanceof ViewChange vc) {
            if (behaviors.contains(Behavior.FAKE_CERTIFICATES)) {
                return withFakeCertificate(vc);
            }
        } else if (m instanceof NewView nv) {
            if (behaviors.contains(Behavior.FAKE_CERTIFICATES)) {
                return withInventedProposal(nv);
            }
        } else if (m instanceof Claim c) {
            if (behaviors.contains(Behavior.LYING_CLAIMS) && rnd.nextBoolean()) {
                return new Claim(withPhantom(c.refs()), self);
            }
        } else if (m instanceof SignedClaim sc) {
            if (behaviors.contains(Behavior.LYING_CLAIMS) && rnd.nextBoolean()) {
                return new SignedClaim(withPhantom(sc.refs()), self);
            }
        }
        return m;
    }

    /** A certificate for the slot after the stable checkpoint naming a batch nobody prepared. */
    private ViewChange withFakeCertificate(ViewChange vc) {
        long seq = vc.stableSeq() + 1;
        int oldView = Math.max(0, vc.newView() - 1);
        PrePrepare pp = new PrePrepare(oldView, seq, new Batch(List.of(phantom())), membership.primary(oldView));
        List<Prepare> prepares = new ArrayList<>();
        boolean forge = rnd.nextBoolean();
        for (int n = 0; n < membership.agreementCount() && prepares.size() < membership.prepareQuorum(); n++) {
            if (n != pp.sender() && (forge || n == self)) {
                prepares.add(new Prepare(oldView, seq, pp.digest(), n));
            }
        }
        List<PreparedCertificate> certs = new ArrayList<>();
        certs.add(new PreparedCertificate(pp, prepares));
        vc.prepared().stream().filter(c -> c.seq() != seq).forEach(certs::add);
        return new ViewChange(vc.newView(), vc.stableSeq(), vc.stableDigest(), vc.stableProof(), certs, self);
    }

    /** A new-view that slips in a proposal its view-changes do not justify. */
    private NewView withInventedProposal(NewView nv) {
        List<PrePrepare> proposals = new ArrayList<>(nv.prePrepares());
        long seq = proposals.isEmpty() ? 1 + rnd.nextInt(4) : proposals.get(0).seq();
        PrePrepare invented = new PrePrepare(nv.view(), seq, new Batch(List.of(phantom())), self);
        if (proposals.isEmpty()) {
            proposals.add(invented);
        } else {
            proposals.set(0, invented);
        }
        return new NewView(nv.view(), nv.viewChanges(), proposals, self);
    }

    private Batch alter(Batch b) {
        if (b.size() > 1) {
            List<RequestRef> reversed = new ArrayList<>(b.requests());
            java.util.Collections.reverse(reversed);
            return new Batch(reversed);
        }
        return new Batch(List.of(phantom()));
    }

    private List<RequestRef> withPhantom(List<RequestRef> refs) {
        List<RequestRef> lies = new ArrayList<>(refs);
        lies.add(phantom());
        return lies;
    }

    /**
     * A request no client sent. With LYING_CLAIMS (requests authenticated with MACs) it has a body, which this node
     * relays along with the message that names it: a relayed body nobody can authenticate is still taken where a
     * slot awaits it, so only the rule that f+1 nodes must vouch for it keeps it from being ordered.
     */
    private RequestRef phantom() {
        RequestId id = new RequestId("phantom-" + self, 1 + rnd.nextInt(3));
        if (!behaviors.contains(Behavior.LYING_CLAIMS)) {
            return new RequestRef(id, randomDigest());
        }
        byte[] payload = new byte[8];
        rnd.nextBytes(payload);
        org.bftws.core.Request forged = new org.bftws.core.Request(id, payload);
        forgedBodies.add(forged);
        if (forgedBodies.size() > 8) {
            forgedBodies.remove(0);
        }
        return forged.ref();
    }

    /** Bodies of the last phantoms it named, relayed along with what it sends. */
    private final List<org.bftws.core.Request> forgedBodies = new ArrayList<>();

    private Digest randomDigest() {
        byte[] b = new byte[Digest.LENGTH];
        rnd.nextBytes(b);
        return Digest.fromBytes(b);
    }
}
