package org.bftws.wire;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bftws.core.Message;

/**
 * A signature source that answers every question once and remembers the answer: what the encoder embedded in a
 * bundle is then known exactly, so the sender can have the bundle's {@link WireBundle} (what the {@code mac}
 * profile authenticates) without decoding the XML it just wrote, even while the signature cache behind it changes.
 * One per bundle, on the sending thread.
 */
public final class RecordedSignatures implements SignatureSource {
    private final SignatureSource source;
    private final Map<Message, Optional<byte[]>> answered = new HashMap<>();

    public RecordedSignatures(SignatureSource source) {
        this.source = source;
    }

    @Override
    public Optional<byte[]> signatureOf(Message m) {
        return answered.computeIfAbsent(m, source::signatureOf);
    }

    /** The bundle of {@code messages} as a receiver decodes it: each with the signatures the encoder embedded. */
    public WireBundle bundleOf(List<? extends Message> messages) {
        return new WireBundle(messages.stream().map(m -> {
            Map<Message, byte[]> embedded = new HashMap<>();
            for (Message part : Proofs.signedParts(m)) {
                Optional<byte[]> sig = answered.get(part);
                if (sig != null && sig.isPresent()) {
                    embedded.put(part, sig.get());
                }
            }
            return new WireMessage(m, embedded);
        }).toList());
    }
}
