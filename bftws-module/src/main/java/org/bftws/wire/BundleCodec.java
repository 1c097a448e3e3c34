package org.bftws.wire;

import java.util.ArrayList;
import java.util.List;
import org.bftws.core.RequestIdentity;
import org.apache.axiom.om.OMContainer;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.bftws.core.Message;

/**
 * The SOAP body element that carries several PBFT messages to one destination, {@code <pbft:Messages>}: replicas
 * send many small messages to each peer, and one HTTP request for all of them is what makes batching pay. Each
 * transferable message carries its embedded signature (attribute {@code sig}), and so does every transferable message
 * inside it. Thread-safe: it holds only limits.
 */
public final class BundleCodec {
    private final WireLimits limits;
    private final RequestIdentity identity;

    /** A codec that names every request it decodes by its bytes. */
    public BundleCodec(WireLimits limits) {
        this(limits, RequestIdentity.BYTES);
    }

    /** A codec that names the requests it decodes with {@code identity} (see {@link RequestIdentity}). */
    public BundleCodec(WireLimits limits, RequestIdentity identity) {
        this.limits = limits;
        this.identity = identity;
    }

    public WireLimits limits() {
        return limits;
    }

    /** How the requests this codec decodes are named. */
    public RequestIdentity identity() {
        return identity;
    }

    /**
     * The bundle element for {@code messages}, appended to {@code parent} (e.g. the SOAP body; null for none). With
     * {@code requireSignatures} every transferable part must have a signature in {@code signatures}
     * (IllegalStateException otherwise); without, missing ones are left out (the {@code none} profile).
     */
    public OMElement encode(List<? extends Message> messages, SignatureSource signatures, boolean requireSignatures,
                            OMFactory factory, OMContainer parent) {
        if (messages.isEmpty() || messages.size() > limits.maxMessages()) {
            throw new IllegalArgumentException("a bundle holds 1.." + limits.maxMessages() + " messages, not "
                    + messages.size() + ": split larger ones");
        }
        MessageEncoder encoder = new MessageEncoder(factory, signatures, requireSignatures);
        OMElement bundle = factory.createOMElement(WireNames.MESSAGES.getLocalPart(), encoder.namespace(), parent);
        for (Message m : messages) {
            encoder.encode(m, bundle);
        }
        return bundle;
    }

    /**
     * Decodes a {@code pbft:Messages} element: every message and the signatures that came with it. AXIOM parses a
     * received body lazily, while the decoder walks it; XML that turns out not to be well formed there is refused
     * like any other malformed input ({@link MalformedXml}).
     */
    public WireBundle decode(OMElement bundle) throws WireFormatException {
        try {
            return decodeBundle(bundle);
        } catch (RuntimeException e) {
            if (!MalformedXml.isParserRefusal(e)) {
                throw e;
            }
            throw new WireFormatException(WireNames.PREFIX + ":" + WireNames.MESSAGES.getLocalPart(),
                    "not well-formed XML: " + e.getMessage());
        }
    }

    private WireBundle decodeBundle(OMElement bundle) throws WireFormatException {
        XmlInput in = XmlInput.root(bundle);
        if (!in.localName().equals(WireNames.MESSAGES.getLocalPart())) {
            throw in.problem("expected pbft:" + WireNames.MESSAGES.getLocalPart());
        }
        MessageDecoder decoder = new MessageDecoder(limits, identity);
        ChildCursor children = in.children();
        List<WireMessage> out = new ArrayList<>();
        for (XmlInput child = children.next(); child != null; child = children.next()) {
            if (out.size() == limits.maxMessages()) {
                throw in.problem("more than " + limits.maxMessages() + " messages in one bundle");
            }
            out.add(decoder.entry(child));
        }
        in.done();
        if (out.isEmpty()) {
            throw in.problem("an empty bundle: at least one message expected");
        }
        return new WireBundle(out);
    }

    /** Decodes one message element on its own (a message embedded elsewhere, tests). */
    public WireMessage decodeMessage(OMElement element) throws WireFormatException {
        try {
            return new MessageDecoder(limits, identity).entry(XmlInput.root(element));
        } catch (RuntimeException e) {
            if (!MalformedXml.isParserRefusal(e)) {
                throw e;
            }
            throw new WireFormatException(element.getLocalName(), "not well-formed XML: " + e.getMessage());
        }
    }
}
