package org.bftws.wire;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.bftws.core.Digest;

/**
 * Reads back what {@link CanonicalWriter} wrote, strictly: every read checks that the bytes are there, every length
 * and count is checked against a bound and against what is left before anything is allocated for it, booleans are
 * 0 or 1 and strings well-formed UTF-8. A problem is a {@link WireFormatException} naming the part being read (a
 * {@link Where}) and the byte offset. Not thread-safe: one per frame.
 */
final class CanonicalReader {
    private final byte[] data;
    private final int end;
    private int position;

    CanonicalReader(byte[] data) {
        this.data = data;
        this.end = data.length;
    }

    int position() {
        return position;
    }

    boolean atEnd() {
        return position == end;
    }

    int remaining() {
        return end - position;
    }

    int readByte(Where where, String field) throws WireFormatException {
        need(1, where, field);
        return data[position++] & 0xff;
    }

    boolean readBoolean(Where where, String field) throws WireFormatException {
        int at = position;
        int b = readByte(where, field);
        if (b > 1) {
            throw problem(where, field + " is " + b + " at byte " + at + ", a boolean is 0 or 1");
        }
        return b == 1;
    }

    int readInt(Where where, String field) throws WireFormatException {
        need(4, where, field);
        int v = 0;
        for (int i = 0; i < 4; i++) {
            v = (v << 8) | (data[position++] & 0xff);
        }
        return v;
    }

    long readLong(Where where, String field) throws WireFormatException {
        need(8, where, field);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (data[position++] & 0xff);
        }
        return v;
    }

    /** An int in {@code min..max}. */
    int readInt(Where where, String field, int min, int max) throws WireFormatException {
        int at = position;
        int v = readInt(where, field);
        if (v < min || v > max) {
            throw problem(where, field + " is " + v + " at byte " + at + ", outside " + min + ".." + max);
        }
        return v;
    }

    /** A long in {@code min..max}. */
    long readLong(Where where, String field, long min, long max) throws WireFormatException {
        int at = position;
        long v = readLong(where, field);
        if (v < min || v > max) {
            throw problem(where, field + " is " + v + " at byte " + at + ", outside " + min + ".." + max);
        }
        return v;
    }

    /** The count of a list: 0..max. */
    int readCount(Where where, String what, int max) throws WireFormatException {
        int at = position;
        int n = readInt(where, "the number of " + what);
        if (n < 0 || n > max) {
            throw problem(where, "more than " + max + " " + what + " (" + Integer.toUnsignedString(n)
                    + ") at byte " + at);
        }
        return n;
    }

    /** A length-prefixed byte string of at most {@code max} bytes, checked before it is copied. */
    byte[] readBytes(Where where, String field, int max) throws WireFormatException {
        int length = readLength(where, field, max);
        byte[] out = Arrays.copyOfRange(data, position, position + length);
        position += length;
        return out;
    }

    /** A length-prefixed UTF-8 string of 1..maxChars characters (UTF-16 units, as Java counts them). */
    String readString(Where where, String field, int maxChars) throws WireFormatException {
        int at = position;
        // a UTF-16 unit takes at most 3 UTF-8 bytes (a 4-byte sequence is two units)
        int length = readLength(where, field, (int) Math.min(Integer.MAX_VALUE, 3L * maxChars));
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data, position, length)).toString();
        } catch (CharacterCodingException e) {
            throw problem(where, field + " at byte " + at + " is not well-formed UTF-8");
        }
        position += length;
        if (text.isEmpty() || text.length() > maxChars) {
            throw problem(where, field + " at byte " + at + " has " + text.length() + " characters, not 1.." + maxChars);
        }
        return text;
    }

    Digest readDigest(Where where, String field) throws WireFormatException {
        need(Digest.LENGTH, where, field);
        Digest d = Digest.fromBytes(Arrays.copyOfRange(data, position, position + Digest.LENGTH));
        position += Digest.LENGTH;
        return d;
    }

    private int readLength(Where where, String field, int max) throws WireFormatException {
        int at = position;
        int length = readInt(where, "the length of " + field);
        if (length < 0 || length > max) {
            throw problem(where, field + " at byte " + at + " has " + Integer.toUnsignedString(length)
                    + " bytes, more than " + max);
        }
        if (length > remaining()) {
            throw problem(where, field + " at byte " + at + " claims " + length + " bytes, only " + remaining()
                    + " follow");
        }
        return length;
    }

    private void need(int bytes, Where where, String field) throws WireFormatException {
        if (remaining() < bytes) {
            throw problem(where, "ends at byte " + end + " inside " + field + " (" + bytes + " bytes needed at byte "
                    + position + ")");
        }
    }

    static WireFormatException problem(Where where, String problem) {
        return new WireFormatException(where.toString(), problem);
    }

    /**
     * Where in a frame a part is, for refusals: {@code frame/ViewChange[2]/certificate[1]/Prepare[2]}. A chain of
     * small objects; the text is built only when something is refused.
     */
    static final class Where {
        private final Where parent;
        private final String name;
        private final int index;

        private Where(Where parent, String name, int index) {
            this.parent = parent;
            this.name = name;
            this.index = index;
        }

        static Where root(String name) {
            return new Where(null, name, 0);
        }

        /** The {@code index}-th (from 1) {@code name} inside this part. */
        Where child(String name, int index) {
            return new Where(this, name, index);
        }

        @Override
        public String toString() {
            String self = index > 0 ? name + "[" + index + "]" : name;
            return parent == null ? self : parent + "/" + self;
        }
    }
}
