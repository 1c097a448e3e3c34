package org.bftws.wire;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.SignedClaim;
import org.bftws.core.StateSnapshot;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;
import org.bftws.core.ViewChangeRef;
import org.bftws.wire.CanonicalReader.Where;

/**
 * Reads core messages from their canonical form ({@link CanonicalForm}), the exact inverse of its writer: the same
 * fields in the same order, each checked for range, every list against its {@link WireLimits} bound before it is
 * read, and the same inconsistencies refused as {@link MessageDecoder} refuses in XML (a certificate's prepare for
 * another slot, a proof checkpoint for another state, a re-proposal of another view or node, a committed batch whose
 * references are not its requests'). Then the signature table that follows each top-level message. A new message
 * kind needs one case in {@link #body} (and its writer in {@link CanonicalForm}). One reader per frame: the byte
 * budget spans all of its messages.
 */
final class BinaryMessageReader {
    private final WireLimits limits;
    private final org.bftws.core.RequestIdentity identity;
    private final CanonicalReader in;
    private long budget;

    BinaryMessageReader(WireLimits limits, org.bftws.core.RequestIdentity identity, CanonicalReader in) {
        this.limits = limits;
        this.identity = identity;
        this.in = in;
        this.budget = limits.maxBundleBytes();
    }

    /** One top-level message and the signatures of its signed parts, in {@link Proofs#signedParts} order. */
    WireMessage entry(Where frame, int index) throws WireFormatException {
        int at = in.position();
        MessageKind kind = kind(frame, "message", index);
        Where where = frame.child(kind.element(), index);
        Message m = body(kind, where);
        return new WireMessage(m, signatures(m, where, at));
    }

    /** A message embedded in another: its tag must be {@code expected}. */
    private Message embedded(MessageKind expected, Where parent, String name, int index) throws WireFormatException {
        Where where = parent.child(name, index);
        int at = in.position();
        int tag = in.readByte(where, "the tag");
        if (tag != expected.tag()) {
            throw CanonicalReader.problem(where, "tag " + tag + " at byte " + at + ", expected " + expected.tag() + " ("
                    + expected.element() + ")");
        }
        return body(expected, where);
    }

    private MessageKind kind(Where parent, String name, int index) throws WireFormatException {
        int at = in.position();
        int tag = in.readByte(parent.child(name, index), "the tag");
        MessageKind kind = MessageKind.byTag(tag);
        if (kind == null) {
            throw CanonicalReader.problem(parent.child(name, index), "tag " + tag + " at byte " + at
                    + " is no PBFT message kind");
        }
        return kind;
    }

    /** The fields after the tag, in {@link CanonicalForm#write} order. */
    private Message body(MessageKind kind, Where w) throws WireFormatException {
        switch (kind) {
            case PRE_PREPARE: {
                int view = view(w);
                long seq = seq(w, "seq");
                Batch batch = batch(w, limits.maxBatch());
                return new PrePrepare(view, seq, batch, from(w));
            }
            case PREPARE:
                return new Prepare(view(w), seq(w, "seq"), in.readDigest(w, "digest"), from(w));
            case COMMIT:
                return new Commit(view(w), seq(w, "seq"), in.readDigest(w, "digest"), from(w));
            case CHECKPOINT:
                return new Checkpoint(seq(w, "seq"), in.readDigest(w, "state digest"), from(w));
            case VIEW_CHANGE:
                return viewChange(w);
            case NEW_VIEW:
                return newView(w);
            case FETCH_REQUESTS: {
                int n = in.readCount(w, "digests", limits.maxRequests());
                List<Digest> digests = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    digests.add(in.readDigest(w.child("digest", i), "digest"));
                }
                return new FetchRequests(digests, from(w));
            }
            case FORWARDED_REQUESTS:
                return new ForwardedRequests(requests(w), from(w));
            case FETCH_STATE:
                return new FetchState(seq(w, "seq"), from(w));
            case STATE_SNAPSHOT:
                return stateSnapshot(w);
            case STATUS:
                return status(w);
            case REPLY: {
                RequestId id = requestId(w);
                int view = view(w);
                byte[] result = spend(in.readBytes(w, "result", limits.maxPayloadBytes()), w);
                return new Reply(id, view, result, from(w));
            }
            case COMMITTED_BATCH:
                return committedBatch(w);
            case FETCH_COMMITTED:
                return new FetchCommitted(seq(w, "afterSeq"), from(w));
            case CLAIM:
                return new Claim(refs(w, limits.maxRequests()), from(w));
            case SIGNED_CLAIM:
                return new SignedClaim(refs(w, limits.maxRequests()), from(w));
            default:
                throw new IllegalStateException("no binary reader for " + kind);
        }
    }

    private ViewChange viewChange(Where w) throws WireFormatException {
        int newView = view(w);
        long stableSeq = seq(w, "stableSeq");
        Digest stableDigest = in.readDigest(w, "stableDigest");
        List<Checkpoint> proof = checkpoints(w);
        for (Checkpoint cp : proof) {
            if (cp.seq() != stableSeq || !cp.state().equals(stableDigest)) {
                throw CanonicalReader.problem(w, "inconsistent: proof " + cp + " is not for the stable checkpoint "
                        + stableSeq + " with digest " + stableDigest);
            }
        }
        int certificates = in.readCount(w, "certificates", limits.maxSlots());
        List<PreparedCertificate> prepared = new ArrayList<>(certificates);
        for (int c = 1; c <= certificates; c++) {
            Where cw = w.child("certificate", c);
            PrePrepare pp = (PrePrepare) embedded(MessageKind.PRE_PREPARE, cw, "PrePrepare", 0);
            int n = in.readCount(cw, "prepares", limits.nodes());
            List<Prepare> prepares = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                Prepare p = (Prepare) embedded(MessageKind.PREPARE, cw, "Prepare", i);
                if (p.view() != pp.view() || p.seq() != pp.seq() || !p.digest().equals(pp.digest())) {
                    throw CanonicalReader.problem(cw.child("Prepare", i), "inconsistent: the prepare names view "
                            + p.view() + ", seq " + p.seq() + ", digest " + p.digest() + "; its pre-prepare view "
                            + pp.view() + ", seq " + pp.seq() + ", digest " + pp.digest());
                }
                prepares.add(p);
            }
            prepared.add(new PreparedCertificate(pp, prepares));
        }
        return new ViewChange(newView, stableSeq, stableDigest, proof, prepared, from(w));
    }

    private NewView newView(Where w) throws WireFormatException {
        int view = view(w);
        int n = in.readCount(w, "view-change references", limits.nodes());
        List<ViewChangeRef> refs = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            Where rw = w.child("ViewChangeRef", i);
            refs.add(new ViewChangeRef(from(rw), in.readDigest(rw, "digest")));
        }
        int slots = in.readCount(w, "re-proposals", limits.maxSlots());
        List<PrePrepare> prePrepares = new ArrayList<>(slots);
        for (int i = 1; i <= slots; i++) {
            prePrepares.add((PrePrepare) embedded(MessageKind.PRE_PREPARE, w, "PrePrepare", i));
        }
        int from = from(w);
        for (int i = 0; i < prePrepares.size(); i++) {
            PrePrepare p = prePrepares.get(i);
            if (p.view() != view || p.sender() != from) {
                throw CanonicalReader.problem(w.child("PrePrepare", i + 1), "inconsistent: a re-proposal must be node "
                        + from + "'s in view " + view + ", this is " + p);
            }
        }
        return new NewView(view, refs, prePrepares, from);
    }

    private StateSnapshot stateSnapshot(Where w) throws WireFormatException {
        long seq = seq(w, "seq");
        byte[] state = spend(in.readBytes(w, "state", limits.maxStateBytes()), w);
        List<Checkpoint> proof = checkpoints(w);
        for (Checkpoint cp : proof) {
            if (cp.seq() != seq) {
                throw CanonicalReader.problem(w, "inconsistent: proof " + cp + " is not for sequence number " + seq);
            }
        }
        // the array was copied out of the frame for this message alone: handed over, not copied again
        return StateSnapshot.handingOver(seq, state, proof, from(w));
    }

    private Status status(Where w) throws WireFormatException {
        int view = view(w);
        boolean changing = in.readBoolean(w, "viewChanging");
        long stable = seq(w, "stableSeq");
        long executed = seq(w, "lastExecuted");
        int target = in.readInt(w, "targetView", 0, Integer.MAX_VALUE);
        if (changing ? target <= view : target != view) {
            throw CanonicalReader.problem(w, "targetView " + target + " with view " + view
                    + (changing ? " while" : " without") + " changing views");
        }
        int n = in.readCount(w, "view-change holders", limits.nodes());
        Set<Integer> holders = new TreeSet<>();
        int previous = -1;
        for (int i = 1; i <= n; i++) {
            int node = in.readInt(w, "view-change holder " + i, 0, limits.nodes() - 1);
            if (node <= previous) {
                // the canonical form lists them ascending, each once: anything else is not this encoding
                throw CanonicalReader.problem(w, "view-change holders are not distinct and ascending (" + node
                        + " after " + previous + ")");
            }
            previous = node;
            holders.add(node);
        }
        return new Status(view, changing, stable, executed, from(w), target, holders);
    }

    private CommittedBatch committedBatch(Where w) throws WireFormatException {
        int view = view(w);
        long seq = seq(w, "seq");
        Batch batch = batch(w, limits.maxRequests());
        List<Request> requests = requests(w);
        if (!batch.requests().equals(requests.stream().map(Request::ref).toList())) {
            throw CanonicalReader.problem(w, "inconsistent: the batch is not its requests' references in order");
        }
        return new CommittedBatch(view, seq, batch, requests, from(w));
    }

    private Batch batch(Where w, int max) throws WireFormatException {
        long time = in.readLong(w, "time", 0, Long.MAX_VALUE);
        return new Batch(refs(w, max), time);
    }

    private List<RequestRef> refs(Where w, int max) throws WireFormatException {
        int n = in.readCount(w, "request references", max);
        List<RequestRef> refs = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            Where rw = w.child("Ref", i);
            refs.add(new RequestRef(requestId(rw), in.readDigest(rw, "digest")));
        }
        return refs;
    }

    private List<Request> requests(Where w) throws WireFormatException {
        int n = in.readCount(w, "requests", limits.maxRequests());
        List<Request> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            Where rw = w.child("Request", i);
            RequestId id = requestId(rw);
            out.add(identity.identify(Request.over(id, spend(in.readBytes(rw, "payload", limits.maxPayloadBytes()), rw))));
        }
        return out;
    }

    private List<Checkpoint> checkpoints(Where w) throws WireFormatException {
        int n = in.readCount(w, "proof checkpoints", limits.nodes());
        List<Checkpoint> out = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            out.add((Checkpoint) embedded(MessageKind.CHECKPOINT, w, "Checkpoint", i));
        }
        return out;
    }

    /**
     * After a top-level message, for each of its signed parts in {@link Proofs#signedParts} order: a presence byte,
     * then (when 1) the length-prefixed signature. Equal values appear with the same signature or none at all.
     */
    private Map<Message, byte[]> signatures(Message m, Where w, int start) throws WireFormatException {
        List<Message> parts = Proofs.signedParts(m);
        if (parts.isEmpty()) {
            return Map.of();
        }
        Map<Message, byte[]> out = new HashMap<>();
        Map<Message, Boolean> present = new HashMap<>();
        for (int i = 0; i < parts.size(); i++) {
            Message part = parts.get(i);
            Where sw = w.child("signature", i + 1);
            boolean has = in.readBoolean(sw, "presence");
            byte[] sig = has ? in.readBytes(sw, "signature", limits.maxSignatureBytes()) : null;
            if (has && sig.length == 0) {
                throw CanonicalReader.problem(sw, "an empty signature");
            }
            Boolean earlier = present.putIfAbsent(part, has);
            if (earlier != null && (earlier != has || (has && !Arrays.equals(out.get(part), sig)))) {
                throw CanonicalReader.problem(sw, "inconsistent: two different signatures for the same " + part);
            }
            if (has) {
                out.put(part, sig);
            }
        }
        return out;
    }

    private RequestId requestId(Where w) throws WireFormatException {
        String client = in.readString(w, "client", limits.maxClientIdChars());
        return new RequestId(client, in.readLong(w, "number", 1, Long.MAX_VALUE));
    }

    private byte[] spend(byte[] bytes, Where w) throws WireFormatException {
        budget -= bytes.length;
        if (budget < 0) {
            throw CanonicalReader.problem(w, "the frame's payloads, results and states exceed "
                    + limits.maxBundleBytes() + " bytes");
        }
        return bytes;
    }

    private int view(Where w) throws WireFormatException {
        return in.readInt(w, "view", 0, Integer.MAX_VALUE);
    }

    private long seq(Where w, String field) throws WireFormatException {
        return in.readLong(w, field, 0, Long.MAX_VALUE);
    }

    private int from(Where w) throws WireFormatException {
        return in.readInt(w, "sender", 0, limits.nodes() - 1);
    }
}
