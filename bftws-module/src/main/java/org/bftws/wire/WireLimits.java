package org.bftws.wire;

import org.bftws.config.GroupConfig;
import org.bftws.config.ProtocolConfig;

/**
 * Bounds the decoder enforces, so that input from the network can never make a node allocate or work without limit.
 * Every list is counted while it is read and refused as soon as it passes its bound; nothing is ever sized from a
 * number the sender wrote. Derived from the group's configuration: a correct node never exceeds them.
 *
 * @param nodes             node ids are 0..nodes-1 (agreement nodes first, then Configuration III execution nodes)
 * @param maxMessages       messages in one {@code pbft:Messages} bundle
 * @param maxBatch          request references in one batch (the group's batchMaxSize)
 * @param maxRequests       requests or digests in one FetchRequests, ForwardedRequests or CommittedBatch
 * @param maxSlots          prepared certificates in a view-change, pre-prepares in a new-view (the watermark window)
 * @param maxClientIdChars  characters of a client (WS-RM sequence) id
 * @param maxPayloadBytes   bytes of one client request (its signed SOAP envelope) or of one reply's result
 * @param maxStateBytes     bytes of the application state in a state snapshot
 * @param maxSignatureBytes bytes of one embedded signature (an Ed25519 signature has exactly 64)
 * @param maxBundleBytes    decoded payload, result and state bytes in one bundle, all messages together
 */
public record WireLimits(int nodes, int maxMessages, int maxBatch, int maxRequests, int maxSlots, int maxClientIdChars,
                         int maxPayloadBytes, int maxStateBytes, int maxSignatureBytes, long maxBundleBytes) {

    public static final int DEFAULT_MAX_MESSAGES = 1024;
    public static final int DEFAULT_MAX_CLIENT_ID_CHARS = 256;
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;
    public static final int DEFAULT_MAX_STATE_BYTES = 16 << 20;
    public static final int DEFAULT_MAX_SIGNATURE_BYTES = MessageSigner.SIGNATURE_BYTES;
    public static final long DEFAULT_MAX_BUNDLE_BYTES = 64L << 20;

    public WireLimits {
        if (nodes < 1 || maxMessages < 1 || maxBatch < 1 || maxRequests < 1 || maxSlots < 1 || maxClientIdChars < 1
                || maxPayloadBytes < 1 || maxStateBytes < 1 || maxSignatureBytes < 1 || maxBundleBytes < 1) {
            throw new IllegalArgumentException("every wire limit must be positive: " + this);
        }
    }

    /**
     * The limits for a group: its node count, batch size and watermark window; a node fetches or forwards at most
     * twice a batch of requests at a time (the core's bound), defaults for the rest.
     */
    public static WireLimits forGroup(GroupConfig group) {
        ProtocolConfig p = group.protocol();
        return of(group.nodes().size(), p.batchMaxSize(), p.watermarkWindow());
    }

    /** The limits for {@code nodes} nodes, batches of at most {@code batch} requests and a window of {@code window}. */
    public static WireLimits of(int nodes, int batch, int window) {
        return new WireLimits(nodes, DEFAULT_MAX_MESSAGES, batch, 2 * batch, window, DEFAULT_MAX_CLIENT_ID_CHARS,
                DEFAULT_MAX_PAYLOAD_BYTES, DEFAULT_MAX_STATE_BYTES, DEFAULT_MAX_SIGNATURE_BYTES,
                DEFAULT_MAX_BUNDLE_BYTES);
    }

    public WireLimits withMaxStateBytes(int bytes) {
        return new WireLimits(nodes, maxMessages, maxBatch, maxRequests, maxSlots, maxClientIdChars, maxPayloadBytes,
                bytes, maxSignatureBytes, Math.max(maxBundleBytes, bytes + (long) maxPayloadBytes));
    }

    public WireLimits withMaxPayloadBytes(int bytes) {
        return new WireLimits(nodes, maxMessages, maxBatch, maxRequests, maxSlots, maxClientIdChars, bytes,
                maxStateBytes, maxSignatureBytes, maxBundleBytes);
    }
}
