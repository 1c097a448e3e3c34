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
 *
 * <p>Creation time: a BFT-WS client's UUID is a version 7 UUID (RFC 9562), whose first 48 bits are the Unix time in
 * milliseconds at which the client made it. The identifier of such a sequence carries that time in front:
 * {@code urn:bftws:sequence:<ms>:<uuid as above>}. Every replica reads it from the identifier alone
 * ({@link #createdAt}), which is what lets idle sequences expire by an ordered decision and keeps an expired one
 * from being used again (docs/protocol.md, "Expiry"). Other client UUIDs give the {@code urn:uuid:} form, without a
 * creation time.
 */
public final class SequenceIds {

    private static final long OWNER_BITS = 0x3fffffffffffffffL;
    /** The prefix of identifiers that carry their creation time. */
    static final String TIMED_PREFIX = "urn:bftws:sequence:";
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
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
        String id = format(client, ownerTag(owner));
        java.util.OptionalLong created = clientCreationTime(clientUuid);
        return created.isPresent() ? TIMED_PREFIX + created.getAsLong() + ":" + id : id;
    }

    /** A fresh client UUID: version 7, its creation time (now) in the first 48 bits, the rest random. */
    public static String newClientUuid() {
        return newClientUuid(System.currentTimeMillis());
    }

    static String newClientUuid(long millis) {
        long high = (millis << 16) | 0x7000L | (RANDOM.nextInt() & 0x0fffL);
        long low = (RANDOM.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    /** The creation time a version 7 client UUID carries, in Unix milliseconds; empty for other UUIDs. */
    public static java.util.OptionalLong clientCreationTime(String clientUuid) {
        try {
            UUID u = UUID.fromString(normalise(clientUuid));
            return u.version() == 7 ? java.util.OptionalLong.of(u.getMostSignificantBits() >>> 16)
                    : java.util.OptionalLong.empty();
        } catch (IllegalArgumentException e) {
            return java.util.OptionalLong.empty();
        }
    }

    /**
     * When the sequence was created (Unix milliseconds), read from its identifier alone; empty when it carries no
     * creation time (the {@code urn:uuid:} form) or is no identifier of this scheme.
     */
    public static java.util.OptionalLong createdAt(String sequenceId) {
        if (sequenceId == null || !sequenceId.startsWith(TIMED_PREFIX)) {
            return java.util.OptionalLong.empty();
        }
        int colon = sequenceId.indexOf(':', TIMED_PREFIX.length());
        if (colon < 0 || colon - TIMED_PREFIX.length() > 19) {
            return java.util.OptionalLong.empty();
        }
        try {
            long ms = Long.parseLong(sequenceId.substring(TIMED_PREFIX.length(), colon));
            return ms >= 0 && parse(sequenceId) != null ? java.util.OptionalLong.of(ms) : java.util.OptionalLong.empty();
        } catch (NumberFormatException e) {
            return java.util.OptionalLong.empty();
        }
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
        return u != null && u.getMostSignificantBits() == withVersion(clientPart(clientUuid, groupEndpoint))
                && createdAt(sequenceId).equals(clientCreationTime(clientUuid));
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
        if (sequenceId != null && sequenceId.startsWith(TIMED_PREFIX)) {
            int colon = sequenceId.indexOf(':', TIMED_PREFIX.length());
            sequenceId = colon < 0 ? null : sequenceId.substring(colon + 1);
        }
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
