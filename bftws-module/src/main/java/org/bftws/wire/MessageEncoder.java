package org.bftws.wire;

import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
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
import org.bftws.core.ViewChangeRef;

import static org.bftws.wire.WireNames.*;

/**
 * Writes core messages as AXIOM elements (docs/wire.md): fields as unqualified attributes, lists as child elements,
 * digests and signatures in base64, request payloads, replies' results and states as base64 text. A transferable
 * message gets a {@code sig} attribute when {@code signatures} knows its signature; with {@code requireSignatures}
 * a missing one is a programming error (the node lost a signature it must embed), never silently omitted.
 */
final class MessageEncoder {
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    /** One line per state snapshot encoded (its step in docs/recovery.md's transfer breakdown). */
    private static final org.slf4j.Logger STATE_LOG = org.slf4j.LoggerFactory.getLogger("org.bftws.metrics.TransferTrace");

    private final OMFactory factory;
    private final OMNamespace ns;
    private final SignatureSource signatures;
    private final boolean requireSignatures;

    MessageEncoder(OMFactory factory, SignatureSource signatures, boolean requireSignatures) {
        this.factory = factory;
        this.ns = factory.createOMNamespace(NS, PREFIX);
        this.signatures = signatures;
        this.requireSignatures = requireSignatures;
    }

    OMNamespace namespace() {
        return ns;
    }

    OMElement encode(Message m, OMElement parent) {
        OMElement e = factory.createOMElement(MessageKind.of(m).element(), ns, parent);
        if (m instanceof PrePrepare pp) {
            attr(e, VIEW, pp.view());
            attr(e, SEQ, pp.seq());
            attr(e, TIME, pp.batch().time());
            refs(pp.batch(), e);
        } else if (m instanceof Prepare p) {
            attr(e, VIEW, p.view());
            attr(e, SEQ, p.seq());
            attr(e, DIGEST, p.digest());
        } else if (m instanceof Commit c) {
            attr(e, VIEW, c.view());
            attr(e, SEQ, c.seq());
            attr(e, DIGEST, c.digest());
        } else if (m instanceof Checkpoint c) {
            attr(e, SEQ, c.seq());
            attr(e, DIGEST, c.state());
        } else if (m instanceof ViewChange vc) {
            attr(e, VIEW, vc.newView());
            attr(e, STABLE_SEQ, vc.stableSeq());
            attr(e, STABLE_DIGEST, vc.stableDigest());
            vc.stableProof().forEach(c -> encode(c, e));
            for (PreparedCertificate c : vc.prepared()) {
                OMElement cert = factory.createOMElement(CERTIFICATE, ns, e);
                encode(c.prePrepare(), cert);
                c.prepares().forEach(p -> encode(p, cert));
            }
        } else if (m instanceof NewView nv) {
            attr(e, VIEW, nv.view());
            for (ViewChangeRef r : nv.viewChanges()) {
                OMElement ref = factory.createOMElement(VIEW_CHANGE_REF, ns, e);
                attr(ref, FROM, r.sender());
                attr(ref, DIGEST, r.digest());
            }
            nv.prePrepares().forEach(pp -> encode(pp, e));
        } else if (m instanceof FetchRequests fr) {
            for (Digest d : fr.digests()) {
                attr(factory.createOMElement(WANT, ns, e), DIGEST, d);
            }
        } else if (m instanceof ForwardedRequests fw) {
            requests(fw.requests(), e);
        } else if (m instanceof FetchState fs) {
            attr(e, SEQ, fs.seq());
        } else if (m instanceof StateSnapshot s) {
            attr(e, SEQ, s.seq());
            long started = System.nanoTime();
            factory.createOMElement(STATE, ns, e).setText(base64(s.state()));
            STATE_LOG.info("transfer: {} encoded as base64 text in {} ms", s, (System.nanoTime() - started) / 1_000_000);
            s.proof().forEach(c -> encode(c, e));
        } else if (m instanceof Status st) {
            attr(e, VIEW, st.view());
            e.addAttribute(VIEW_CHANGING, Boolean.toString(st.viewChanging()), null);
            attr(e, STABLE_SEQ, st.stableSeq());
            attr(e, LAST_EXECUTED, st.lastExecuted());
            attr(e, TARGET_VIEW, st.targetView());
            if (!st.viewChangesFrom().isEmpty()) {
                e.addAttribute(VIEW_CHANGES_FROM, st.viewChangesFrom().stream().sorted().map(String::valueOf)
                        .collect(java.util.stream.Collectors.joining(" ")), null);
            }
        } else if (m instanceof Reply r) {
            e.addAttribute(CLIENT, r.request().client(), null);
            attr(e, NUMBER, r.request().number());
            attr(e, VIEW, r.view());
            e.setText(BASE64.encodeToString(r.result()));
        } else if (m instanceof CommittedBatch cb) {
            attr(e, VIEW, cb.view());
            attr(e, SEQ, cb.seq());
            attr(e, TIME, cb.batch().time());
            // the batch is the requests' references in order (the core builds it so): sending both would only
            // open a way to be inconsistent
            if (!cb.batch().requests().equals(cb.requests().stream().map(Request::ref).toList())) {
                throw new IllegalArgumentException(cb + ": its requests are not its batch's bodies in order");
            }
            requests(cb.requests(), e);
        } else if (m instanceof FetchCommitted fc) {
            attr(e, AFTER_SEQ, fc.afterSeq());
        } else if (m instanceof Claim c) {
            refs(c.refs(), e);
        } else if (m instanceof SignedClaim sc) {
            refs(sc.refs(), e);
        }
        attr(e, FROM, m.sender());
        if (m.transferable()) {
            sign(m, e);
        }
        return e;
    }

    private void sign(Message m, OMElement e) {
        Optional<byte[]> sig = signatures.signatureOf(m);
        if (sig.isPresent()) {
            e.addAttribute(SIG, BASE64.encodeToString(sig.get()), null);
        } else if (requireSignatures) {
            throw new IllegalStateException("no signature known for " + m + ": a transferable message must travel"
                    + " with its sender's signature (sign own messages before sending; keep received ones in the"
                    + " SignatureCache until their checkpoint is stable)");
        }
    }

    private void refs(Batch batch, OMElement parent) {
        refs(batch.requests(), parent);
    }

    private void refs(List<RequestRef> refs, OMElement parent) {
        for (RequestRef r : refs) {
            OMElement ref = factory.createOMElement(REF, ns, parent);
            ref.addAttribute(CLIENT, r.id().client(), null);
            attr(ref, NUMBER, r.id().number());
            attr(ref, DIGEST, r.digest());
        }
    }

    private void requests(List<Request> requests, OMElement parent) {
        for (Request r : requests) {
            OMElement req = factory.createOMElement(REQUEST, ns, parent);
            req.addAttribute(CLIENT, r.id().client(), null);
            attr(req, NUMBER, r.id().number());
            req.setText(BASE64.encodeToString(r.payload()));
        }
    }

    private static void attr(OMElement e, String name, long value) {
        e.addAttribute(name, Long.toString(value), null);
    }

    private static void attr(OMElement e, String name, Digest value) {
        e.addAttribute(name, BASE64.encodeToString(value.bytes()), null);
    }

    /** Base64 of a read-only view, without copying the view's bytes into an array first. */
    private static String base64(java.nio.ByteBuffer data) {
        java.nio.ByteBuffer text = BASE64.encode(data);
        return new String(text.array(), text.arrayOffset() + text.position(), text.remaining(),
                java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
