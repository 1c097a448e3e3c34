package org.bftws.wire;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import org.bftws.core.RequestIdentity;
import java.util.Map;
import java.util.Optional;
import org.bftws.core.Message;
import org.bftws.wire.CanonicalReader.Where;

/**
 * The payload of a binary replica channel frame (docs/wire.md, "The binary channel"): the bytes the {@code mac}
 * profile already authenticates for a SOAP bundle ({@link WireBundle#writeCanonical}). A header (bundle tag 0x42,
 * the canonical form's version, the message count), then per message its canonical form ({@link CanonicalForm})
 * followed by its signature table: for each signed part ({@link Proofs#signedParts}) a presence byte and, when
 * present, the length-prefixed signature. Compact (no names, no base64), deterministic, and decoded as strictly as
 * the XML ({@link BinaryMessageReader}): a decoded frame encodes back to exactly its bytes. Thread-safe: it holds
 * only limits.
 */
public final class BinaryCodec {
    /** Tag, version, count. */
    public static final int HEADER_BYTES = 1 + 4 + 4;

    private final WireLimits limits;
    private final RequestIdentity identity;

    /** A codec that names every request it decodes by its bytes. */
    public BinaryCodec(WireLimits limits) {
        this(limits, RequestIdentity.BYTES);
    }

    /** A codec that names the requests it decodes with {@code identity} (see {@link RequestIdentity}). */
    public BinaryCodec(WireLimits limits, RequestIdentity identity) {
        this.limits = limits;
        this.identity = identity;
    }

    public WireLimits limits() {
        return limits;
    }

    /**
     * One message's part of a frame: its canonical form and signature table. With {@code requireSignatures} every
     * signed part must have a signature in {@code signatures} (IllegalStateException naming it otherwise: the message
     * cannot travel, the caller leaves it out); without, missing ones are marked absent (the {@code none} profile).
     */
    public byte[] entry(Message m, SignatureSource signatures, boolean requireSignatures) {
        List<Message> parts = Proofs.signedParts(m);
        // one answer per value: a cache that learns a signature meanwhile must not make equal parts disagree
        Map<Message, Optional<byte[]>> answers = new HashMap<>();
        List<byte[]> sigs = new ArrayList<>(parts.size());
        for (Message part : parts) {
            byte[] sig = answers.computeIfAbsent(part, signatures::signatureOf).orElse(null);
            if (sig == null && requireSignatures) {
                throw new IllegalStateException("no signature known for " + part + (part == m ? "" : " inside " + m)
                        + ": a transferable message must travel with its sender's signature");
            }
            sigs.add(sig);
        }
        CanonicalWriter out = new CanonicalWriter(256);
        CanonicalForm.write(m, out);
        for (byte[] sig : sigs) {
            out.writeBoolean(sig != null);
            if (sig != null) {
                out.writeBytes(sig);
            }
        }
        return out.toByteArray();
    }

    /** The frame payload of {@code entries} (each from {@link #entry}), in order. */
    public byte[] frame(List<byte[]> entries) {
        if (entries.isEmpty() || entries.size() > limits.maxMessages()) {
            throw new IllegalArgumentException("a frame holds 1.." + limits.maxMessages() + " messages, not "
                    + entries.size() + ": split larger ones");
        }
        long size = HEADER_BYTES;
        for (byte[] e : entries) {
            size += e.length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a frame of " + size + " bytes: split it");
        }
        CanonicalWriter out = new CanonicalWriter((int) size);
        out.writeByte(WireBundle.BUNDLE_TAG).writeInt(CanonicalForm.VERSION).writeInt(entries.size());
        entries.forEach(out::writeRaw);
        return out.toByteArray();
    }

    /** {@link #entry} for each message, then {@link #frame}. */
    public byte[] encode(List<? extends Message> messages, SignatureSource signatures, boolean requireSignatures) {
        List<byte[]> entries = new ArrayList<>(messages.size());
        for (Message m : messages) {
            entries.add(entry(m, signatures, requireSignatures));
        }
        return frame(entries);
    }

    /**
     * The messages of a frame payload and the signatures that came with them. Refuses, with a WireFormatException
     * naming the part ({@code frame/ViewChange[2]/certificate[1]/Prepare[2]}), the byte offset and the problem,
     * anything that is not exactly what {@link #frame} writes within the limits: another tag or version, a count or
     * length beyond its bound or beyond the bytes left, a value out of range, an inconsistency inside a message,
     * bytes after the last message.
     */
    public WireBundle decode(byte[] payload) throws WireFormatException {
        Where frame = Where.root("frame");
        CanonicalReader in = new CanonicalReader(payload);
        int tag = in.readByte(frame, "the bundle tag");
        if (tag != WireBundle.BUNDLE_TAG) {
            throw CanonicalReader.problem(frame, "opens with " + tag + ", not the bundle tag " + WireBundle.BUNDLE_TAG);
        }
        int version = in.readInt(frame, "the version");
        if (version != CanonicalForm.VERSION) {
            throw CanonicalReader.problem(frame, "version " + version + ", this node reads " + CanonicalForm.VERSION);
        }
        int count = in.readInt(frame, "the message count", 1, limits.maxMessages());
        BinaryMessageReader reader = new BinaryMessageReader(limits, identity, in);
        List<WireMessage> out = new ArrayList<>(Math.min(count, 64));
        try {
            for (int i = 1; i <= count; i++) {
                out.add(reader.entry(frame, i));
            }
        } catch (IllegalArgumentException e) {
            // a core constructor's own check; the reader checks first, so this is a gap in it, still a refusal
            throw CanonicalReader.problem(frame.child("message", out.size() + 1), "inconsistent: " + e.getMessage());
        }
        if (!in.atEnd()) {
            throw CanonicalReader.problem(frame, in.remaining() + " bytes after the last message, at byte "
                    + in.position());
        }
        return new WireBundle(out);
    }
}
