package org.bftws.wire;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bftws.core.Digest;

/**
 * Appends the primitive values of a canonical form to a growable buffer: integers big-endian with a fixed width,
 * byte strings and UTF-8 strings prefixed with their length, digests as their 32 raw bytes. Every variable-length
 * part carries its length, so the encoding is prefix-free: two different value sequences never give the same bytes.
 */
public final class CanonicalWriter {
    private byte[] buffer;
    private int size;

    public CanonicalWriter() {
        this(256);
    }

    public CanonicalWriter(int initialCapacity) {
        buffer = new byte[Math.max(16, initialCapacity)];
    }

    public CanonicalWriter writeByte(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    public CanonicalWriter writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    public CanonicalWriter writeInt(int value) {
        ensure(4);
        for (int shift = 24; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
        return this;
    }

    public CanonicalWriter writeLong(long value) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[size++] = (byte) (value >>> shift);
        }
        return this;
    }

    /** Length (4 bytes) then the bytes. */
    public CanonicalWriter writeBytes(byte[] data) {
        writeInt(data.length);
        return writeRaw(data);
    }

    /** Length (4 bytes) then the bytes from the view's position to its limit (the view's position is kept). */
    public CanonicalWriter writeBytes(java.nio.ByteBuffer data) {
        int length = data.remaining();
        writeInt(length);
        ensure(length);
        data.duplicate().get(buffer, size, length);
        size += length;
        return this;
    }

    /** Length of the UTF-8 form (4 bytes) then the UTF-8 bytes. */
    public CanonicalWriter writeString(String text) {
        return writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The digest's 32 bytes; fixed width, so no length. */
    public CanonicalWriter writeDigest(Digest digest) {
        return writeRaw(digest.bytes());
    }

    /** Bytes without a length: only for values of fixed width or already self-delimiting encodings. */
    public CanonicalWriter writeRaw(byte[] data) {
        ensure(data.length);
        System.arraycopy(data, 0, buffer, size, data.length);
        size += data.length;
        return this;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            long wanted = Math.max((long) buffer.length * 2, (long) size + more);
            if (wanted > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("canonical form larger than 2 GiB");
            }
            buffer = Arrays.copyOf(buffer, (int) wanted);
        }
    }
}
