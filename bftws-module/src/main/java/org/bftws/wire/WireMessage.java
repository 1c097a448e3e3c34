package org.bftws.wire;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.bftws.core.Message;

/**
 * A message as it came off the wire: the core message and the embedded signatures that travelled with it, for the
 * message itself (when transferable) and for every transferable message inside it, keyed by message value. Equal
 * values carry one signature: the decoder refuses a message that attaches two different ones to the same value.
 * Nothing here is verified yet; {@link ProofVerifier#verifyProofs} does that.
 */
public final class WireMessage implements SignatureSource {
    private final Message message;
    private final Map<Message, byte[]> signatures;

    public WireMessage(Message message, Map<Message, byte[]> signatures) {
        this.message = message;
        this.signatures = Collections.unmodifiableMap(new HashMap<>(signatures));
    }

    /** A message with the signatures {@code source} knows for its signed parts (e.g. for tests and relaying). */
    public static WireMessage of(Message message, SignatureSource source) {
        Map<Message, byte[]> found = new HashMap<>();
        for (Message part : Proofs.signedParts(message)) {
            source.signatureOf(part).ifPresent(s -> found.put(part, s));
        }
        return new WireMessage(message, found);
    }

    public Message message() {
        return message;
    }

    @Override
    public Optional<byte[]> signatureOf(Message m) {
        byte[] s = signatures.get(m);
        return s == null ? Optional.empty() : Optional.of(s.clone());
    }

    /** How many distinct signed values travelled with the message. */
    public int signatureCount() {
        return signatures.size();
    }

    @Override
    public String toString() {
        return message + " with " + signatures.size() + " signature(s)";
    }
}
