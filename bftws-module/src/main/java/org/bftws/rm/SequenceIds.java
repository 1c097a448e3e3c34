package org.bftws.rm;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Sequence identifiers. BFT-WS (paper 3.3.1.1) needs every replica of a group to answer one CreateSequence with the
 * same identifier, so the identifier is derived, not drawn:
 *
 * <pre>
 *   h  = SHA-256( UTF-8("bftws-sequence-v1\n" + clientUuid + "\n" + groupEndpoint) )
 *   id = "urn:uuid:" + UUID(h[0..15]) with the version nibble set to 8 (RFC 9562, custom) and the RFC 4122 variant
 * </pre>
 *
 * {@code clientUuid} is the text of the CreateSequence extension element, lower-cased and trimmed;
 * {@code groupEndpoint} is the group endpoint from replicas.xml, or for a service without a group the address the
 * client used (its own URL). A client can compute the same value and check the CreateSequenceResponse.
 */
public final class SequenceIds {

    private SequenceIds() {
    }

    public static String derive(String clientUuid, URI groupEndpoint) {
        if (clientUuid == null || clientUuid.isBlank()) {
            throw new IllegalArgumentException("a client UUID is needed to derive a sequence identifier");
        }
        String input = "bftws-sequence-v1\n" + normalise(clientUuid) + "\n" + groupEndpoint;
        byte[] h = sha256(input.getBytes(StandardCharsets.UTF_8));
        h[6] = (byte) ((h[6] & 0x0f) | 0x80);
        h[8] = (byte) ((h[8] & 0x3f) | 0x80);
        ByteBuffer b = ByteBuffer.wrap(h, 0, 16);
        return "urn:uuid:" + new UUID(b.getLong(), b.getLong());
    }

    /** A fresh identifier for a CreateSequence that carries no client UUID (plain WS-RM peers). */
    public static String random() {
        return "urn:uuid:" + UUID.randomUUID();
    }

    /** The client UUID as it enters the derivation: trimmed, lower case, without a {@code urn:uuid:} prefix. */
    static String normalise(String clientUuid) {
        String u = clientUuid.trim().toLowerCase(java.util.Locale.ROOT);
        return u.startsWith("urn:uuid:") ? u.substring("urn:uuid:".length()) : u;
    }

    private static byte[] sha256(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(in);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always provides SHA-256", e);
        }
    }
}
