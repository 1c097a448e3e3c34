package org.bftws.wire;

import java.util.List;
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
import org.bftws.core.RequestRef;
import org.bftws.core.StateSnapshot;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;

/**
 * The compact, deterministic byte form of a core message: what embedded signatures and MACs cover. It is the tag of
 * the message's {@link MessageKind} followed by every field in declaration order ({@link CanonicalWriter} widths and
 * length prefixes); embedded messages appear in their own canonical form. Nothing about the XML (prefixes, attribute
 * order, whitespace, base64 variants) reaches it, so two messages have the same canonical bytes exactly when they
 * have the same value. Version {@value #VERSION}: a bundle's canonical bytes (what MACs cover) carry it; a change
 * of this form must also change {@link SigningInput}'s domain string.
 */
public final class CanonicalForm {
    public static final int VERSION = 2;

    private CanonicalForm() {
    }

    public static byte[] of(Message m) {
        CanonicalWriter out = new CanonicalWriter(sizeHint(m));
        write(m, out);
        return out.toByteArray();
    }

    public static void write(Message m, CanonicalWriter out) {
        MessageKind kind = MessageKind.of(m);
        out.writeByte(kind.tag());
        if (m instanceof PrePrepare pp) {
            out.writeInt(pp.view()).writeLong(pp.seq());
            batch(pp.batch(), out);
        } else if (m instanceof Prepare p) {
            out.writeInt(p.view()).writeLong(p.seq()).writeDigest(p.digest());
        } else if (m instanceof Commit c) {
            out.writeInt(c.view()).writeLong(c.seq()).writeDigest(c.digest());
        } else if (m instanceof Checkpoint c) {
            out.writeLong(c.seq()).writeDigest(c.state());
        } else if (m instanceof ViewChange vc) {
            out.writeInt(vc.newView()).writeLong(vc.stableSeq()).writeDigest(vc.stableDigest());
            messages(vc.stableProof(), out);
            out.writeInt(vc.prepared().size());
            for (PreparedCertificate c : vc.prepared()) {
                write(c.prePrepare(), out);
                messages(c.prepares(), out);
            }
        } else if (m instanceof NewView nv) {
            out.writeInt(nv.view());
            out.writeInt(nv.viewChanges().size());
            nv.viewChanges().forEach(r -> out.writeInt(r.sender()).writeDigest(r.digest()));
            messages(nv.prePrepares(), out);
        } else if (m instanceof FetchRequests fr) {
            out.writeInt(fr.digests().size());
            fr.digests().forEach(out::writeDigest);
        } else if (m instanceof ForwardedRequests fw) {
            requests(fw.requests(), out);
        } else if (m instanceof FetchState fs) {
            out.writeLong(fs.seq());
        } else if (m instanceof StateSnapshot s) {
            out.writeLong(s.seq()).writeBytes(s.state());
            messages(s.proof(), out);
        } else if (m instanceof Status st) {
            out.writeInt(st.view()).writeBoolean(st.viewChanging()).writeLong(st.stableSeq()).writeLong(st.lastExecuted())
                    .writeInt(st.targetView()).writeInt(st.viewChangesFrom().size());
            st.viewChangesFrom().stream().sorted().forEach(out::writeInt);
        } else if (m instanceof Reply r) {
            out.writeString(r.request().client()).writeLong(r.request().number()).writeInt(r.view()).writeBytes(r.result());
        } else if (m instanceof CommittedBatch cb) {
            out.writeInt(cb.view()).writeLong(cb.seq());
            batch(cb.batch(), out);
            requests(cb.requests(), out);
        } else if (m instanceof FetchCommitted fc) {
            out.writeLong(fc.afterSeq());
        } else if (m instanceof Claim c) {
            refs(c.refs(), out);
        } else if (m instanceof SignedClaim sc) {
            refs(sc.refs(), out);
        }
        out.writeInt(m.sender());
    }

    private static void batch(Batch batch, CanonicalWriter out) {
        out.writeLong(batch.time());
        refs(batch.requests(), out);
    }

    private static void refs(List<RequestRef> refs, CanonicalWriter out) {
        out.writeInt(refs.size());
        for (RequestRef r : refs) {
            out.writeString(r.id().client()).writeLong(r.id().number()).writeDigest(r.digest());
        }
    }

    private static void requests(List<Request> requests, CanonicalWriter out) {
        out.writeInt(requests.size());
        for (Request r : requests) {
            out.writeString(r.id().client()).writeLong(r.id().number()).writeBytes(r.payload());
        }
    }

    private static void messages(List<? extends Message> list, CanonicalWriter out) {
        out.writeInt(list.size());
        for (Message m : list) {
            write(m, out);
        }
    }

    /** A first buffer size that avoids most regrowth; exactness does not matter. */
    private static int sizeHint(Message m) {
        if (m instanceof PrePrepare pp) {
            return 32 + pp.batch().size() * (Digest.LENGTH + 64);
        } else if (m instanceof ViewChange || m instanceof NewView || m instanceof StateSnapshot
                || m instanceof ForwardedRequests || m instanceof CommittedBatch) {
            return 4096;
        }
        return 64;
    }
}
