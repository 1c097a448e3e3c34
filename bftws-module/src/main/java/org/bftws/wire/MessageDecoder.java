package org.bftws.wire;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Claim;
import org.bftws.core.Commit;
import org.bftws.core.CommittedBatch;
import org.bftws.core.Digest;
import org.bftws.core.FetchCommitted;
import org.bftws.core.FetchRequests;
import org.bftws.core.FetchState;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Reply;
import org.bftws.core.SignedClaim;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.StateSnapshot;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;
import org.bftws.core.ViewChangeRef;

import static org.bftws.wire.WireNames.*;

/**
 * Reads core messages from XML, strictly and within {@link WireLimits}. Besides form and bounds it refuses what is
 * inconsistent inside one message (a prepare in a certificate that names another slot than its pre-prepare, a proof
 * checkpoint for another state, a re-proposal in another view than its new-view, two signatures for one value). It
 * checks no signature and no protocol rule: {@link ProofVerifier} and the core do that. One decoder per bundle: the
 * byte budget spans all of its messages.
 */
final class MessageDecoder {
    /** One line per state snapshot decoded (its step in docs/recovery.md's transfer breakdown). */
    private static final org.slf4j.Logger STATE_LOG = org.slf4j.LoggerFactory.getLogger("org.bftws.metrics.TransferTrace");

    private final WireLimits limits;
    private final org.bftws.core.RequestIdentity identity;
    private Map<Message, byte[]> signatures;
    private long budget;

    MessageDecoder(WireLimits limits, org.bftws.core.RequestIdentity identity) {
        this.limits = limits;
        this.identity = identity;
        this.budget = limits.maxBundleBytes();
    }

    /** One top-level message of a bundle, with the signatures found in it. */
    WireMessage entry(XmlInput in) throws WireFormatException {
        signatures = new HashMap<>();
        MessageKind kind = MessageKind.byElement(in.localName());
        if (kind == null) {
            throw in.problem("not a PBFT message element");
        }
        Message m = message(kind, in);
        return new WireMessage(m, signatures);
    }

    private Message message(MessageKind kind, XmlInput in) throws WireFormatException {
        switch (kind) {
            case PRE_PREPARE: return prePrepare(in);
            case PREPARE: return prepare(in);
            case CHECKPOINT: return checkpoint(in);
            case VIEW_CHANGE: return viewChange(in);
            case NEW_VIEW: return newView(in);
            case SIGNED_CLAIM: return signed(new SignedClaim(refs(in, limits.maxRequests()), from(in)), in);
            default: break;
        }
        Message m = plain(kind, in);
        in.done();
        return m;
    }

    /** The messages without signatures and without embedded messages. */
    private Message plain(MessageKind kind, XmlInput in) throws WireFormatException {
        switch (kind) {
            case COMMIT:
                return new Commit(view(in), seq(in, SEQ), in.digest(DIGEST), from(in));
            case FETCH_REQUESTS: {
                List<Digest> digests = new ArrayList<>();
                ChildCursor c = in.children();
                for (XmlInput want : c.many(WANT, limits.maxRequests())) {
                    digests.add(want.digest(DIGEST));
                    want.done();
                }
                c.end();
                return new FetchRequests(digests, from(in));
            }
            case FORWARDED_REQUESTS: {
                ChildCursor c = in.children();
                List<Request> requests = requests(c);
                c.end();
                return new ForwardedRequests(requests, from(in));
            }
            case FETCH_STATE:
                return new FetchState(seq(in, SEQ), from(in));
            case STATE_SNAPSHOT:
                return stateSnapshot(in);
            case STATUS:
                return status(in);
            case REPLY: {
                RequestId id = requestId(in);
                int view = view(in);
                return new Reply(id, view, spend(in.textBytes(limits.maxPayloadBytes()), in), from(in));
            }
            case COMMITTED_BATCH: {
                int view = view(in);
                long seq = seq(in, SEQ);
                long time = time(in);
                ChildCursor c = in.children();
                List<Request> requests = requests(c);
                c.end();
                return new CommittedBatch(view, seq, new Batch(requests.stream().map(Request::ref).toList(), time),
                        requests, from(in));
            }
            case FETCH_COMMITTED:
                return new FetchCommitted(seq(in, AFTER_SEQ), from(in));
            case CLAIM:
                return new Claim(refs(in, limits.maxRequests()), from(in));
            default:
                throw new IllegalStateException("unhandled kind " + kind);
        }
    }

    private PrePrepare prePrepare(XmlInput in) throws WireFormatException {
        int view = view(in);
        long seq = seq(in, SEQ);
        long time = time(in);
        List<RequestRef> refs = refs(in, limits.maxBatch());
        return signed(new PrePrepare(view, seq, new Batch(refs, time), from(in)), in);
    }

    /** The {@code Ref} children of {@code in}, at most {@code max} of them, and nothing else. */
    private List<RequestRef> refs(XmlInput in, int max) throws WireFormatException {
        List<RequestRef> refs = new ArrayList<>();
        ChildCursor c = in.children();
        for (XmlInput ref : c.many(REF, max)) {
            refs.add(new RequestRef(requestId(ref), ref.digest(DIGEST)));
            ref.done();
        }
        c.end();
        return refs;
    }

    private Prepare prepare(XmlInput in) throws WireFormatException {
        return signed(new Prepare(view(in), seq(in, SEQ), in.digest(DIGEST), from(in)), in);
    }

    private Checkpoint checkpoint(XmlInput in) throws WireFormatException {
        return signed(new Checkpoint(seq(in, SEQ), in.digest(DIGEST), from(in)), in);
    }

    private ViewChange viewChange(XmlInput in) throws WireFormatException {
        int newView = view(in);
        long stableSeq = seq(in, STABLE_SEQ);
        Digest stableDigest = in.digest(STABLE_DIGEST);
        ChildCursor c = in.children();
        List<Checkpoint> proof = checkpoints(c);
        for (Checkpoint cp : proof) {
            if (cp.seq() != stableSeq || !cp.state().equals(stableDigest)) {
                throw in.problem("inconsistent: proof " + cp + " is not for the stable checkpoint " + stableSeq
                        + " with digest " + stableDigest);
            }
        }
        List<PreparedCertificate> prepared = new ArrayList<>();
        for (XmlInput cert : c.many(CERTIFICATE, limits.maxSlots())) {
            prepared.add(certificate(cert));
        }
        c.end();
        return signed(new ViewChange(newView, stableSeq, stableDigest, proof, prepared, from(in)), in);
    }

    private PreparedCertificate certificate(XmlInput in) throws WireFormatException {
        ChildCursor c = in.children();
        PrePrepare pp = prePrepare(c.one(MessageKind.PRE_PREPARE.element()));
        List<Prepare> prepares = new ArrayList<>();
        for (XmlInput p : c.many(MessageKind.PREPARE.element(), limits.nodes())) {
            Prepare prepare = prepare(p);
            if (prepare.view() != pp.view() || prepare.seq() != pp.seq() || !prepare.digest().equals(pp.digest())) {
                throw p.problem("inconsistent: the prepare names view " + prepare.view() + ", seq " + prepare.seq()
                        + ", digest " + prepare.digest() + "; its pre-prepare view " + pp.view() + ", seq "
                        + pp.seq() + ", digest " + pp.digest());
            }
            prepares.add(prepare);
        }
        c.end();
        in.done();
        return new PreparedCertificate(pp, prepares);
    }

    private NewView newView(XmlInput in) throws WireFormatException {
        int view = view(in);
        int from = from(in);
        ChildCursor c = in.children();
        List<ViewChangeRef> viewChanges = new ArrayList<>();
        for (XmlInput ref : c.many(VIEW_CHANGE_REF, limits.nodes())) {
            viewChanges.add(new ViewChangeRef(from(ref), ref.digest(DIGEST)));
            ref.done();
        }
        List<PrePrepare> prePrepares = new ArrayList<>();
        for (XmlInput pp : c.many(MessageKind.PRE_PREPARE.element(), limits.maxSlots())) {
            PrePrepare p = prePrepare(pp);
            if (p.view() != view || p.sender() != from) {
                throw pp.problem("inconsistent: a re-proposal must be node " + from + "'s in view " + view + ", this is "
                        + p);
            }
            prePrepares.add(p);
        }
        c.end();
        return signed(new NewView(view, viewChanges, prePrepares, from), in);
    }

    private StateSnapshot stateSnapshot(XmlInput in) throws WireFormatException {
        long seq = seq(in, SEQ);
        ChildCursor c = in.children();
        XmlInput stateElement = c.one(STATE);
        long started = System.nanoTime();
        byte[] state = spend(stateElement.textBytes(limits.maxStateBytes()), stateElement);
        STATE_LOG.info("transfer: state of {} bytes at n{} read from its base64 text in {} ms", state.length, seq,
                (System.nanoTime() - started) / 1_000_000);
        stateElement.done();
        List<Checkpoint> proof = checkpoints(c);
        c.end();
        for (Checkpoint cp : proof) {
            if (cp.seq() != seq) {
                throw in.problem("inconsistent: proof " + cp + " is not for sequence number " + seq);
            }
        }
        // the decoded array is this method's own: handed over, not copied
        return StateSnapshot.handingOver(seq, state, proof, from(in));
    }

    private List<Checkpoint> checkpoints(ChildCursor c) throws WireFormatException {
        List<Checkpoint> out = new ArrayList<>();
        for (XmlInput cp : c.many(MessageKind.CHECKPOINT.element(), limits.nodes())) {
            out.add(checkpoint(cp));
        }
        return out;
    }

    private List<Request> requests(ChildCursor c) throws WireFormatException {
        List<Request> out = new ArrayList<>();
        for (XmlInput r : c.many(REQUEST, limits.maxRequests())) {
            RequestId id = requestId(r);
            out.add(identity.identify(Request.over(id, spend(r.textBytes(limits.maxPayloadBytes()), r))));
            r.done();
        }
        return out;
    }

    /** Records the signature of a transferable message and finishes its element. */
    private <M extends Message> M signed(M m, XmlInput in) throws WireFormatException {
        byte[] sig = in.optionalBytes(SIG, limits.maxSignatureBytes());
        in.done();
        if (sig != null) {
            byte[] earlier = signatures.putIfAbsent(m, sig);
            if (earlier != null && !java.util.Arrays.equals(earlier, sig)) {
                throw in.problem("inconsistent: two different signatures for the same " + m);
            }
        }
        return m;
    }

    private RequestId requestId(XmlInput in) throws WireFormatException {
        return new RequestId(in.string(CLIENT, limits.maxClientIdChars()), in.number(NUMBER, 1, Long.MAX_VALUE));
    }

    private byte[] spend(byte[] bytes, XmlInput in) throws WireFormatException {
        budget -= bytes.length;
        if (budget < 0) {
            throw in.problem("the bundle's payloads, results and states exceed " + limits.maxBundleBytes() + " bytes");
        }
        return bytes;
    }

    private Status status(XmlInput in) throws WireFormatException {
        int view = view(in);
        boolean changing = in.bool(VIEW_CHANGING);
        long stable = seq(in, STABLE_SEQ);
        long executed = seq(in, LAST_EXECUTED);
        int target = in.integer(TARGET_VIEW, 0, Integer.MAX_VALUE);
        if (changing ? target <= view : target != view) {
            throw in.problem("targetView " + target + " with view " + view + (changing ? " while" : " without")
                    + " changing views");
        }
        java.util.Set<Integer> holders = new java.util.TreeSet<>();
        String list = in.optionalString(VIEW_CHANGES_FROM, limits.nodes() * 11);
        if (list != null) {
            for (String node : list.split(" ", -1)) {
                if (!node.matches("0|[1-9][0-9]{0,9}") || Long.parseLong(node) >= limits.nodes()
                        || !holders.add(Integer.parseInt(node))) {
                    throw in.problem("viewChangesFrom='" + list + "' is not a list of distinct node numbers below "
                            + limits.nodes() + " separated by single spaces");
                }
            }
        }
        return new Status(view, changing, stable, executed, from(in), target, holders);
    }

    private static int view(XmlInput in) throws WireFormatException {
        return in.integer(VIEW, 0, Integer.MAX_VALUE);
    }

    private static long time(XmlInput in) throws WireFormatException {
        return in.number(TIME, 0, Long.MAX_VALUE);
    }

    private static long seq(XmlInput in, String name) throws WireFormatException {
        return in.number(name, 0, Long.MAX_VALUE);
    }

    private int from(XmlInput in) throws WireFormatException {
        return in.integer(FROM, 0, limits.nodes() - 1);
    }
}
