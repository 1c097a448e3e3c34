package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;
import org.junit.jupiter.api.Test;

/**
 * WS-Security verifies a request's bytes as received only where the DOM parser and AXIOM must read the same
 * characters from them: plain UTF-8. Any other encoding, declared or sniffed, is verified from the parsed envelope.
 */
class ReceivedBytesTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void plainUtf8XmlWithOrWithoutADeclarationIsVerifiedAsReceived() {
        assertTrue(ReceivedBytes.isPlainUtf8Xml(utf8("<s:Envelope/>")));
        assertTrue(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\"?><s:Envelope/>")));
        assertTrue(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version='1.0' encoding='utf-8'?><s:Envelope/>")));
        assertTrue(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\" encoding = \"UTF-8\" ?><e/>")));
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '<', 'e', '/', '>'};
        assertTrue(ReceivedBytes.isPlainUtf8Xml(bom));
    }

    @Test
    void anyOtherEncodingIsLeftToTheParsedEnvelope() {
        assertFalse(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><e/>")));
        assertFalse(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\" encoding=\"UTF-8x\"?><e/>")));
        assertFalse(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\" encoding=\"UTF-16\"?><e/>")));
        assertFalse(ReceivedBytes.isPlainUtf8Xml("<e/>".getBytes(StandardCharsets.UTF_16)), "UTF-16 with its mark");
        assertFalse(ReceivedBytes.isPlainUtf8Xml("<e/>".getBytes(StandardCharsets.UTF_16LE)), "UTF-16 without");
        assertFalse(ReceivedBytes.isPlainUtf8Xml(utf8(" <e/>")), "leading junk");
        assertFalse(ReceivedBytes.isPlainUtf8Xml(utf8("<?xml version=\"1.0\" encoding=\"UTF-8\"")), "unterminated");
        assertFalse(ReceivedBytes.isPlainUtf8Xml(new byte[0]));
    }

    @Test
    void aCharsetOtherThanUtf8OnTheContentTypeWins() {
        byte[] bytes = utf8("<s:Envelope/>");
        MessageContext mc = new MessageContext();
        mc.setProperty(ReceivedBytes.PROPERTY, bytes);
        assertArrayEquals(bytes, ReceivedBytes.of(mc));
        assertTrue(ReceivedBytes.readAlike(bytes, ReceivedBytes.charsetOf(mc)), "no charset given");
        mc.setProperty(Constants.Configuration.CHARACTER_SET_ENCODING, "utf-8");
        assertTrue(ReceivedBytes.readAlike(bytes, ReceivedBytes.charsetOf(mc)));
        mc.setProperty(Constants.Configuration.CHARACTER_SET_ENCODING, "ISO-8859-1");
        assertFalse(ReceivedBytes.readAlike(bytes, ReceivedBytes.charsetOf(mc)),
                "AXIOM reads Latin-1 there: verify what it parsed");
        assertNull(ReceivedBytes.of(new MessageContext()), "nothing was captured");
    }
}
