package org.bftws.security.mac;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The bytes form of the {@code mac} profile: a MAC that covers a message's bytes exactly as they travel, so that a
 * receiver checks it without parsing the body or walking a canonical form. The MAC values themselves cannot be part
 * of what they cover, so the input is the message's bytes with every MAC value of its authenticator header replaced
 * by {@link #PLACEHOLDER} (the base64 of 32 zero bytes, a value of the same length).
 *
 * <p>The sender writes its authenticator with placeholders, serialises the envelope once, MACs those bytes and
 * writes each MAC over its placeholder ({@link #seal}). The receiver reads the MAC values from the header, finds
 * each, in document order, as the first occurrence after the previous one, puts the placeholder back
 * ({@link #blanked}) and MACs the result. The search is a function of the bytes alone, so every receiver blanks the
 * same places; a value found elsewhere than where its sender wrote it only makes the MAC fail. Whatever the blanking
 * finds, the input differs from the sender's in MAC values only, so no other byte can change unnoticed.
 */
final class ByteSeal {
    /** The attribute of an authenticator header that says its MACs cover the bytes, and its value. */
    static final String COVERS = "covers";
    static final String BYTES = "bytes";
    static final byte[] PLACEHOLDER_MAC = new byte[AuthenticatorHeader.MAC_BYTES];
    static final byte[] PLACEHOLDER = Base64.getEncoder().encode(PLACEHOLDER_MAC);

    private ByteSeal() {
    }

    /**
     * Writes {@code macs}, in order, over the first placeholders of {@code bytes} (a fresh serialisation with
     * placeholders in its authenticator): the sender's last step.
     */
    static void seal(byte[] bytes, List<byte[]> macs) {
        int from = 0;
        Base64.Encoder base64 = Base64.getEncoder();
        for (byte[] mac : macs) {
            int at = indexOf(bytes, PLACEHOLDER, from);
            if (at < 0) {
                throw new IllegalStateException("the serialised message lost its authenticator's placeholder");
            }
            byte[] text = base64.encode(mac);
            System.arraycopy(text, 0, bytes, at, text.length);
            from = at + text.length;
        }
    }

    /**
     * A copy of {@code bytes} with each of {@code macs} (as their base64 text), found in order, replaced by the
     * placeholder: what the sender MACed. IllegalArgumentException when one is not found as written.
     */
    static byte[] blanked(byte[] bytes, List<byte[]> macs) {
        byte[] copy = bytes.clone();
        int from = 0;
        Base64.Encoder base64 = Base64.getEncoder();
        for (byte[] mac : macs) {
            byte[] text = base64.encode(mac);
            int at = indexOf(copy, text, from);
            if (at < 0) {
                throw new IllegalArgumentException("a MAC of the authenticator is not written in the message's bytes"
                        + " as plain base64 (" + new String(text, StandardCharsets.US_ASCII) + ")");
            }
            System.arraycopy(PLACEHOLDER, 0, copy, at, PLACEHOLDER.length);
            from = at + PLACEHOLDER.length;
        }
        return copy;
    }

    static int indexOf(byte[] bytes, byte[] pattern, int from) {
        byte first = pattern[0];
        int last = bytes.length - pattern.length;
        outer:
        for (int i = Math.max(0, from); i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            for (int k = 1; k < pattern.length; k++) {
                if (bytes[i + k] != pattern[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
