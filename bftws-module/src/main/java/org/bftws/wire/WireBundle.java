package org.bftws.wire;

import java.util.List;
import org.bftws.core.Message;

/**
 * The messages of one {@code pbft:Messages} body element, in order: what one node sends another in one SOAP message.
 * {@link #canonicalBytes()} is what the {@code mac} profile authenticates: every message's canonical form and the
 * signatures that travel with it, so a MAC-checked bundle also guarantees that no embedded signature was swapped.
 */
public record WireBundle(List<WireMessage> messages) {

    /** Message context property under which the security layer leaves the bundle it decoded, for the receiver. */
    public static final String PROPERTY = "org.bftws.wire.bundle";

    /**
     * Options/message context property of an outgoing message: the {@link Sent} bundle its body carries, so the
     * security layer need not decode what the sender just encoded.
     */
    public static final String OUTGOING = "org.bftws.wire.outgoingBundle";

    /** Opens a bundle's canonical bytes (and so a binary channel frame's payload, {@link BinaryCodec}). */
    static final int BUNDLE_TAG = 0x42;

    /** A {@code pbft:Messages} element a node encoded and the bundle it encodes (as {@link RecordedSignatures} saw). */
    public record Sent(org.apache.axiom.om.OMElement element, WireBundle bundle) {
    }

    public WireBundle {
        messages = List.copyOf(messages);
    }

    public List<Message> coreMessages() {
        return messages.stream().map(WireMessage::message).toList();
    }

    public byte[] canonicalBytes() {
        CanonicalWriter out = new CanonicalWriter(1024);
        writeCanonical(out);
        return out.toByteArray();
    }

    /**
     * Tag, message count, then per message its canonical form followed by, for each of its signed parts in
     * {@link Proofs#signedParts} order, a presence byte and the signature.
     */
    public void writeCanonical(CanonicalWriter out) {
        out.writeByte(BUNDLE_TAG).writeInt(CanonicalForm.VERSION).writeInt(messages.size());
        for (WireMessage w : messages) {
            CanonicalForm.write(w.message(), out);
            for (Message part : Proofs.signedParts(w.message())) {
                byte[] sig = w.signatureOf(part).orElse(null);
                out.writeBoolean(sig != null);
                if (sig != null) {
                    out.writeBytes(sig);
                }
            }
        }
    }
}
