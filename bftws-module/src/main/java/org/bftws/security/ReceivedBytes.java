package org.bftws.security;

import java.nio.charset.StandardCharsets;
import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;

/**
 * The exact bytes a SOAP request arrived as (the module's message builder keeps them under {@link #PROPERTY}), when
 * WS-Security may verify them instead of a re-serialisation of the parsed envelope: that saves serialising every
 * request once more only to parse it into DOM. Only for plain UTF-8 XML, where the DOM parser and AXIOM cannot read
 * different characters from the same bytes: no charset but UTF-8 on the HTTP content type, no byte-order mark but
 * UTF-8's, no XML declaration naming another encoding. Anything else is verified as before, from the envelope AXIOM
 * parsed, so a signature always vouches for what the service will read.
 */
public final class ReceivedBytes {
    /** Message context property: the request's bytes as received (set by the module's message builder). */
    public static final String PROPERTY = "bftws.rawRequest";

    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final int DECLARATION_LIMIT = 200;

    private ReceivedBytes() {
    }

    /**
     * The bytes of {@code mc} as received when they are plain UTF-8 XML read alike by every parser (see the class
     * comment); null when none were kept or they are not.
     */
    public static byte[] plainOf(MessageContext mc) {
        byte[] bytes = of(mc);
        return bytes != null && readAlike(bytes, charsetOf(mc)) ? bytes : null;
    }

    /** The bytes of {@code mc} as received, null when none were kept. */
    static byte[] of(MessageContext mc) {
        return mc.getProperty(PROPERTY) instanceof byte[] bytes ? bytes : null;
    }

    /** The charset {@code mc}'s content type named, null when none. */
    static String charsetOf(MessageContext mc) {
        Object charset = mc.getProperty(Constants.Configuration.CHARACTER_SET_ENCODING);
        return charset == null ? null : charset.toString();
    }

    /** Whether bytes read with {@code charset} (null: none named) are plain UTF-8 XML, which DOM reads alike. */
    public static boolean readAlike(byte[] bytes, String charset) {
        boolean utf8 = charset == null || "UTF-8".equalsIgnoreCase(charset.trim());
        return utf8 && isPlainUtf8Xml(bytes);
    }

    /** Whether {@code bytes} are UTF-8 XML by their own account (no other byte-order mark or declared encoding). */
    public static boolean isPlainUtf8Xml(byte[] bytes) {
        int start = startsWith(bytes, UTF8_BOM, 0) ? UTF8_BOM.length : 0;
        if (bytes.length <= start + 1 || bytes[start] != '<' || bytes[start + 1] == 0) {
            return false; // UTF-16, UTF-32 (either byte order), EBCDIC or leading junk: leave it to the parsed envelope
        }
        if (!startsWith(bytes, "<?xml".getBytes(StandardCharsets.US_ASCII), start)) {
            return true;
        }
        int end = start;
        while (end < bytes.length && end - start < DECLARATION_LIMIT && bytes[end] != '>') {
            end++;
        }
        if (end >= bytes.length || bytes[end] != '>') {
            return false;
        }
        String declaration = new String(bytes, start, end - start, StandardCharsets.US_ASCII);
        int at = declaration.indexOf("encoding");
        if (at < 0) {
            return true;
        }
        int i = at + "encoding".length();
        while (i < declaration.length() && Character.isWhitespace(declaration.charAt(i))) {
            i++;
        }
        if (i >= declaration.length() || declaration.charAt(i) != '=') {
            return false;
        }
        i++;
        while (i < declaration.length() && Character.isWhitespace(declaration.charAt(i))) {
            i++;
        }
        String rest = declaration.substring(i);
        return rest.length() > 6 && (rest.charAt(0) == '"' || rest.charAt(0) == '\'')
                && rest.substring(1, 6).equalsIgnoreCase("UTF-8") && rest.charAt(6) == rest.charAt(0);
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix, int from) {
        if (bytes.length - from < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[from + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
