package org.bftws.core;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** A SHA-256 digest: of a request, a batch, or a checkpointed state. Immutable, compared by value. */
public final class Digest implements Comparable<Digest> {

    public static final int LENGTH = 32;

    private final byte[] bytes;

    private Digest(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Wraps 32 digest bytes received from elsewhere (a message on the wire). */
    public static Digest fromBytes(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a digest has " + LENGTH + " bytes, not " + bytes.length);
        }
        return new Digest(bytes.clone());
    }

    public static Digest fromHex(String hex) {
        return fromBytes(HexFormat.of().parseHex(hex));
    }

    /** The digest of raw bytes. */
    public static Digest of(byte[] data) {
        return new Builder().add(data).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Digest d && Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public int compareTo(Digest o) {
        return Arrays.compareUnsigned(bytes, o.bytes);
    }

    /** Short form for logs and traces. */
    @Override
    public String toString() {
        return hex().substring(0, 8);
    }

    /**
     * Digest over a structured value. Every variable-length part is length-prefixed, so different field splits can
     * never produce the same input bytes.
     */
    public static final class Builder {
        private final MessageDigest sha;

        private Builder() {
            try {
                sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java 17 runtime has SHA-256", e);
            }
        }

        public Builder add(long value) {
            for (int shift = 56; shift >= 0; shift -= 8) {
                sha.update((byte) (value >>> shift));
            }
            return this;
        }

        public Builder add(byte[] data) {
            add(data.length);
            sha.update(data);
            return this;
        }

        public Builder add(String text) {
            return add(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        public Builder add(Digest digest) {
            sha.update(digest.bytes);
            return this;
        }

        public Digest build() {
            return new Digest(sha.digest());
        }
    }
}
