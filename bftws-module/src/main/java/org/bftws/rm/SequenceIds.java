package org.bftws.rm;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Sequence identifiers. BFT-WS (paper 3.3.1.1) needs every replica of a group to answer one CreateSequence with the
 * same identifier, so the identifier is derived, not drawn. It also names the party that created the sequence, so
 * that every replica can check, from the identifier alone, that a request on it comes from that party (PBFT binds a
 * request to its client's signature; here the client is the sequence, so another authenticated party must not be
 * able to send, or read cached replies, on it):
 *
 * <pre>
 *   c  = SHA-256( UTF-8("bftws-sequence-v2\n" + clientUuid + "\n" + groupEndpoint) )
 *   o  = SHA-256( UTF-8("bftws-sequence-owner-v2\n" + owner) )
 *   id = "urn:uuid:" + UUID(c[0..7] || o[0..7]) with the version nibble set to 8 (RFC 9562, custom) and the
 *        RFC 4122 variant
 * </pre>
 *
 * {@code clientUuid} is the text of the CreateSequence extension element, lower-cased and trimmed;
 * {@code groupEndpoint} is the group endpoint from replicas.xml, or for a service without a group the address the
 * client used (its own URL); {@code owner} is the name of the party that signed the CreateSequence (its certificate's
 * common name, or its MAC key's node name; a caller group's name for a virtual sequence; empty without security).
 * The low 62 bits name the owner: forging a sequence of another party means finding a name of one's own whose tag
 * collides, which the truststore's registered names leave no room for. A client checks the first half (its UUID and
 * the endpoint) of a CreateSequenceResponse; it need not know how the replicas name it.
 */
public final class SequenceIds {

    private static final long OWNER_BITS = 0x3fffffffffffffffL;
    /**
     * Owner tags by owner name: every message on a sequence has its owner checked, and a SHA-256 per message for a
     * handful of authenticated party names was 3 % of a replica's CPU in a JFR profile. Bounded: names come from
     * authenticated parties, but a cache must not grow with what arrives.
     */
    private static final java.util.Map<String, Long> OWNER_TAGS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_CACHED_OWNERS = 4096;

    private SequenceIds() {
    }

    /** The identifier of the sequence {@code owner} creates with {@code clientUuid} at {@code groupEndpoint}. */
    public static String derive(String clientUuid, URI groupEndpoint, String owner) {
        if (clientUuid == null || clientUuid.isBlank()) {
            throw new IllegalArgumentException("a client UUID is needed to derive a sequence identifier");
        }
        long client = clientPart(clientUuid, groupEndpoint);
        return format(client, ownerTag(owner));
    }

    /**
     * A fresh identifier of {@code owner} for a CreateSequence that carries no client UUID (plain WS-RM peers): drawn,
     * since such a peer talks to one node, but still naming its owner.
     */
    public static String random(String owner) {
        return format(UUID.randomUUID().getMostSignificantBits(), ownerTag(owner));
    }

    /** Whether {@code sequenceId} names {@code owner} as the party that created it. */
    public static boolean ownedBy(String sequenceId, String owner) {
        UUID u = parse(sequenceId);
        return u != null && (u.getLeastSignificantBits() & OWNER_BITS) == (ownerTag(owner) & OWNER_BITS);
    }

    /** Whether {@code sequenceId} is the one derived from {@code clientUuid} at {@code groupEndpoint}, whoever owns it. */
    public static boolean derivedFrom(String sequenceId, String clientUuid, URI groupEndpoint) {
        UUID u = parse(sequenceId);
        return u != null && u.getMostSignificantBits() == withVersion(clientPart(clientUuid, groupEndpoint));
    }

    private static long clientPart(String clientUuid, URI groupEndpoint) {
        String input = "bftws-sequence-v2\n" + normalise(clientUuid) + "\n" + groupEndpoint;
        return ByteBuffer.wrap(sha256(input.getBytes(StandardCharsets.UTF_8))).getLong();
    }

    private static long ownerTag(String owner) {
        String name = owner == null ? "" : owner;
        Long cached = OWNER_TAGS.get(name);
        if (cached != null) {
            return cached;
        }
        long tag = computeOwnerTag(name);
        if (OWNER_TAGS.size() < MAX_CACHED_OWNERS) {
            OWNER_TAGS.put(name, tag);
        }
        return tag;
    }

    private static long computeOwnerTag(String owner) {
        String input = "bftws-sequence-owner-v2\n" + (owner == null ? "" : owner);
        return ByteBuffer.wrap(sha256(input.getBytes(StandardCharsets.UTF_8))).getLong();
    }

    private static long withVersion(long high) {
        return (high & ~0xf000L) | 0x8000L;
    }

    private static String format(long high, long low) {
        return "urn:uuid:" + new UUID(withVersion(high), (low & OWNER_BITS) | 0x8000000000000000L);
    }

    private static UUID parse(String sequenceId) {
        if (sequenceId == null || !sequenceId.startsWith("urn:uuid:")) {
            return null;
        }
        try {
            return UUID.fromString(sequenceId.substring("urn:uuid:".length()));
        } catch (IllegalArgumentException e) {
            return null;
        }
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
