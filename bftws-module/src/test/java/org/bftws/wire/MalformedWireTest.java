package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.axiom.om.OMElement;
import org.bftws.core.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of malformed, oversized or inconsistent input is refused with a WireFormatException that names the
 * element (its path from the bundle) and the problem; random corruption never makes the decoder fail otherwise.
 */
class MalformedWireTest {
    private static final String NS = "xmlns:pbft=\"urn:bftws:pbft:1\"";
    private static final String D = b64(new byte[32]);
    private static final String D2 = b64(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
            20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
    private static final String PREPARE = "<pbft:Prepare view=\"1\" seq=\"5\" digest=\"" + D + "\" from=\"2\"/>";

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static String bundle(String inner) {
        return "<pbft:Messages " + NS + ">" + inner + "</pbft:Messages>";
    }

    private static String prePrepare(int view, long seq, int from, String inner) {
        return "<pbft:PrePrepare view=\"" + view + "\" seq=\"" + seq + "\" time=\"0\" from=\"" + from + "\">" + inner + "</pbft:PrePrepare>";
    }

    private static String prepare(int view, long seq, String digest, int from, String extra) {
        return "<pbft:Prepare view=\"" + view + "\" seq=\"" + seq + "\" digest=\"" + digest + "\" from=\"" + from + "\"" + extra + "/>";
    }

    private static String checkpoint(long seq, String digest, int from, String extra) {
        return "<pbft:Checkpoint seq=\"" + seq + "\" digest=\"" + digest + "\" from=\"" + from + "\"" + extra + "/>";
    }

    private static String viewChange(int view, String inner) {
        return "<pbft:ViewChange view=\"" + view + "\" stableSeq=\"0\" stableDigest=\"" + D + "\" from=\"1\">" + inner
                + "</pbft:ViewChange>";
    }

    private static String certificate(String prepareSeq) {
        // an empty batch: the pre-prepare's digest is the null batch's
        String nullDigest = b64(org.bftws.core.Batch.NULL.digest().bytes());
        return "<pbft:Certificate>" + prePrepare(0, 3, 0, "") + prepare(0, 3, nullDigest, 1, "")
                + prepare(0, Long.parseLong(prepareSeq), nullDigest, 2, "") + "</pbft:Certificate>";
    }

    static Stream<Arguments> malformed() {
        String ref = "<pbft:Ref client=\"c\" number=\"1\" digest=\"" + D + "\"/>";
        return Stream.of(
                Arguments.of("a root in another namespace", "<x:Messages xmlns:x=\"urn:other\"/>",
                        "{urn:other}Messages: not in namespace urn:bftws:pbft:1"),
                Arguments.of("a root with another name", "<pbft:Message " + NS + "/>", "pbft:Message: expected pbft:Messages"),
                Arguments.of("an empty bundle", bundle(""), "pbft:Messages: an empty bundle"),
                Arguments.of("an unknown message", bundle("<pbft:Bogus/>"), "pbft:Messages/pbft:Bogus[1]: not a PBFT message element"),
                Arguments.of("a foreign element", bundle(PREPARE + "<x:Evil xmlns:x=\"urn:x\"/>"),
                        "pbft:Messages: unexpected element {urn:x}Evil"),
                Arguments.of("text between messages", bundle(PREPARE + "hello"), "pbft:Messages: unexpected text 'hello'"),
                Arguments.of("a comment", bundle(PREPARE + "<!-- hi -->"), "comments and processing instructions are not allowed"),
                Arguments.of("a missing attribute", bundle("<pbft:Prepare view=\"1\" digest=\"" + D + "\" from=\"2\"/>"),
                        "pbft:Messages/pbft:Prepare[1]: attribute seq is missing"),
                Arguments.of("a number with letters", bundle(prepare(1, 5, D, 2, "").replace("seq=\"5\"", "seq=\"12a\"")),
                        "attribute seq='12a' is not a decimal number without sign"),
                Arguments.of("a negative view", bundle(prepare(1, 5, D, 2, "").replace("view=\"1\"", "view=\"-1\"")),
                        "attribute view='-1' is not a decimal number without sign"),
                Arguments.of("a signed number", bundle(prepare(1, 5, D, 2, "").replace("seq=\"5\"", "seq=\"+5\"")),
                        "attribute seq='+5' is not a decimal number"),
                Arguments.of("a number beyond a long", bundle(prepare(1, 5, D, 2, "").replace("seq=\"5\"", "seq=\"99999999999999999999\"")),
                        "is not a decimal number without sign"),
                Arguments.of("a view beyond an int", bundle(prepare(1, 5, D, 2, "").replace("view=\"1\"", "view=\"2147483648\"")),
                        "attribute view=2147483648 is out of range 0..2147483647"),
                Arguments.of("a sender outside the group", bundle(prepare(1, 5, D, 4, "")), "attribute from=4 is out of range 0..3"),
                Arguments.of("an unknown attribute", bundle(prepare(1, 5, D, 2, " color=\"red\"")),
                        "pbft:Messages/pbft:Prepare[1]: unexpected attribute color"),
                Arguments.of("a namespaced attribute", bundle(prepare(1, 5, D, 2, " xmlns:x=\"urn:x\" x:seq=\"5\"")),
                        "unexpected attribute {urn:x}seq"),
                Arguments.of("a short digest", bundle(prepare(1, 5, "AQID", 2, "")),
                        "attribute digest holds 3 bytes; a SHA-256 digest has 32"),
                Arguments.of("a digest that is not base64", bundle(prepare(1, 5, "!!!!", 2, "")), "digest is not base64"),
                Arguments.of("an oversized digest", bundle(prepare(1, 5, D + D, 2, "")), "digest holds more than 32 bytes"),
                Arguments.of("text in a leaf", bundle("<pbft:Commit view=\"1\" seq=\"5\" digest=\"" + D + "\" from=\"2\">x</pbft:Commit>"),
                        "pbft:Messages/pbft:Commit[1]: unexpected text 'x'"),
                Arguments.of("a child in a leaf", bundle("<pbft:Commit view=\"1\" seq=\"5\" digest=\"" + D + "\" from=\"2\">" + ref + "</pbft:Commit>"),
                        "unexpected element pbft:Ref (this element has no children)"),
                Arguments.of("a batch above batchMaxSize", bundle(prePrepare(0, 1, 0, ref.repeat(65))),
                        "pbft:Messages/pbft:PrePrepare[1]: more than 64 pbft:Ref elements"),
                Arguments.of("request number zero", bundle(prePrepare(0, 1, 0, ref.replace("number=\"1\"", "number=\"0\""))),
                        "pbft:Messages/pbft:PrePrepare[1]/pbft:Ref[1]: attribute number=0 is out of range 1.."),
                Arguments.of("an empty client id", bundle(prePrepare(0, 1, 0, ref.replace("client=\"c\"", "client=\"\""))),
                        "attribute client is empty"),
                Arguments.of("an overlong client id", bundle(prePrepare(0, 1, 0, ref.replace("client=\"c\"", "client=\"" + "c".repeat(257) + "\""))),
                        "attribute client has 257 characters; at most 256 allowed"),
                Arguments.of("a payload that is not base64", bundle("<pbft:ForwardedRequests from=\"1\"><pbft:Request client=\"c\" number=\"1\">%%%%</pbft:Request></pbft:ForwardedRequests>"),
                        "pbft:Messages/pbft:ForwardedRequests[1]/pbft:Request[1]: text is not base64"),
                Arguments.of("an element inside a payload", bundle("<pbft:ForwardedRequests from=\"1\"><pbft:Request client=\"c\" number=\"1\">AAAA" + ref + "</pbft:Request></pbft:ForwardedRequests>"),
                        "unexpected element pbft:Ref (this element has no children)"),
                Arguments.of("a view-change with its parts out of order",
                        bundle(viewChange(1, certificate("3") + checkpoint(0, D, 0, ""))),
                        "pbft:Messages/pbft:ViewChange[1]: unexpected element pbft:Checkpoint after child 1"),
                Arguments.of("a certificate without its pre-prepare",
                        bundle(viewChange(1, "<pbft:Certificate>" + PREPARE + "</pbft:Certificate>")),
                        "pbft:Messages/pbft:ViewChange[1]/pbft:Certificate[1]: expected a pbft:PrePrepare element, found pbft:Prepare"),
                Arguments.of("a prepare for another slot in a certificate", bundle(viewChange(1, certificate("4"))),
                        "pbft:Messages/pbft:ViewChange[1]/pbft:Certificate[1]/pbft:Prepare[2]: inconsistent: the prepare names view 0, seq 4"),
                Arguments.of("an attribute on a certificate",
                        bundle(viewChange(1, certificate("3").replace("<pbft:Certificate>", "<pbft:Certificate seq=\"3\">"))),
                        "pbft:Certificate[1]: unexpected attribute seq"),
                Arguments.of("more prepares than nodes in a certificate",
                        bundle(viewChange(1, certificate("3").replace("</pbft:Certificate>",
                                prepare(0, 3, b64(org.bftws.core.Batch.NULL.digest().bytes()), 3, "").repeat(3) + "</pbft:Certificate>"))),
                        "pbft:Certificate[1]: more than 4 pbft:Prepare elements"),
                Arguments.of("a proof checkpoint for another state", bundle(viewChange(1, checkpoint(0, D2, 0, ""))),
                        "pbft:Messages/pbft:ViewChange[1]: inconsistent: proof Checkpoint(n0"),
                Arguments.of("a whole view-change in a new-view (it names view-changes by digest)",
                        bundle("<pbft:NewView view=\"2\" from=\"2\">" + viewChange(2, "") + "</pbft:NewView>"),
                        "pbft:Messages/pbft:NewView[1]: unexpected element pbft:ViewChange after child 0"),
                Arguments.of("a view-change reference without a digest in a new-view",
                        bundle("<pbft:NewView view=\"2\" from=\"2\"><pbft:ViewChangeRef from=\"1\"/></pbft:NewView>"),
                        "pbft:Messages/pbft:NewView[1]/pbft:ViewChangeRef[1]: attribute digest is missing"),
                Arguments.of("a re-proposal by another node in a new-view",
                        bundle("<pbft:NewView view=\"2\" from=\"2\">" + prePrepare(2, 9, 1, "") + "</pbft:NewView>"),
                        "pbft:Messages/pbft:NewView[1]/pbft:PrePrepare[1]: inconsistent: a re-proposal must be node 2's in view 2"),
                Arguments.of("two signatures for one embedded value", bundle(viewChange(1,
                        checkpoint(0, D, 0, " sig=\"AQID\"") + checkpoint(0, D, 0, " sig=\"BAUG\""))),
                        "pbft:Messages/pbft:ViewChange[1]/pbft:Checkpoint[2]: inconsistent: two different signatures for the same Checkpoint(n0"),
                Arguments.of("a state snapshot whose proof is for another checkpoint", bundle("<pbft:StateSnapshot seq=\"128\" from=\"0\">"
                        + "<pbft:State>AAAA</pbft:State>" + checkpoint(64, D, 1, "") + "</pbft:StateSnapshot>"),
                        "pbft:Messages/pbft:StateSnapshot[1]: inconsistent: proof Checkpoint(n64"),
                Arguments.of("a state snapshot without state", bundle("<pbft:StateSnapshot seq=\"128\" from=\"0\">"
                        + checkpoint(128, D, 1, "") + "</pbft:StateSnapshot>"),
                        "pbft:Messages/pbft:StateSnapshot[1]: expected a pbft:State element, found pbft:Checkpoint"),
                Arguments.of("a flag that is not a boolean", bundle("<pbft:Status view=\"1\" viewChanging=\"yes\" stableSeq=\"0\" lastExecuted=\"0\" from=\"1\"/>"),
                        "attribute viewChanging='yes' is neither true nor false"),
                Arguments.of("a status whose target view is not ahead while changing views", bundle(status("true", "1", "")),
                        "targetView 1 with view 1 while changing views"),
                Arguments.of("a status naming a node twice among view-change holders", bundle(status("true", "2", " viewChangesFrom=\"1 1\"")),
                        "viewChangesFrom='1 1' is not a list of distinct node numbers below 4"),
                Arguments.of("a status naming a node outside the group among view-change holders", bundle(status("true", "2", " viewChangesFrom=\"0 4\"")),
                        "viewChangesFrom='0 4' is not a list of distinct node numbers below 4"),
                Arguments.of("a status with an empty list of view-change holders", bundle(status("true", "2", " viewChangesFrom=\"\"")),
                        "attribute viewChangesFrom is empty"),
                Arguments.of("an oversized signature", bundle(prepare(1, 5, D, 2, " sig=\"" + b64(new byte[65]) + "\"")),
                        "sig holds more than 64 bytes"),
                Arguments.of("an empty signature", bundle(prepare(1, 5, D, 2, " sig=\"\"")), "attribute sig is empty"),
                Arguments.of("a signature on a message that carries none", bundle("<pbft:Commit view=\"1\" seq=\"5\" digest=\"" + D + "\" from=\"2\" sig=\"AQID\"/>"),
                        "pbft:Messages/pbft:Commit[1]: unexpected attribute sig"));
    }

    @ParameterizedTest(name = "{0} is refused")
    @MethodSource("malformed")
    void malformedInputIsRefusedWithAReasonNamingTheElement(String what, String xml, String expected) {
        BundleCodec codec = new BundleCodec(WireLimits.of(4, 64, 256));
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(Xml.parse(xml)), what);
        assertTrue(e.getMessage().contains(expected), what + ": got '" + e.getMessage() + "'");
    }

    @Test
    void aPayloadAboveItsLimitIsRefusedBeforeItIsDecoded() {
        BundleCodec codec = new BundleCodec(WireLimits.of(4, 64, 256).withMaxPayloadBytes(16));
        String xml = bundle("<pbft:ForwardedRequests from=\"1\"><pbft:Request client=\"c\" number=\"1\">"
                + b64(new byte[17]) + "</pbft:Request></pbft:ForwardedRequests>");
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(Xml.parse(xml)));
        assertEquals("pbft:Messages/pbft:ForwardedRequests[1]/pbft:Request[1]", e.element());
        assertEquals("text holds more than 16 bytes (17)", e.problem());
    }

    @Test
    void aBundleWithMoreMessagesThanItsLimitIsRefused() {
        WireLimits few = new WireLimits(4, 3, 64, 128, 256, 256, 1024, 1024, 1024, 1 << 20);
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> new BundleCodec(few).decode(Xml.parse(bundle(PREPARE.repeat(4)))));
        assertEquals("pbft:Messages: more than 3 messages in one bundle", e.getMessage());
    }

    @Test
    void theBytesOfAllMessagesInABundleShareOneBudget() {
        WireLimits small = new WireLimits(4, 16, 64, 128, 256, 256, 1024, 1024, 1024, 100);
        String request = "<pbft:Request client=\"c\" number=\"1\">" + b64(new byte[60]) + "</pbft:Request>";
        String xml = bundle(("<pbft:ForwardedRequests from=\"1\">" + request + "</pbft:ForwardedRequests>").repeat(2));
        WireFormatException e = assertThrows(WireFormatException.class, () -> new BundleCodec(small).decode(Xml.parse(xml)));
        assertEquals("pbft:Messages/pbft:ForwardedRequests[2]/pbft:Request[1]", e.element());
        assertTrue(e.problem().contains("exceed 100 bytes"), e.problem());
    }

    @Test
    void aMalformedPrepareDeepInsideAViewChangeIsNamedByItsFullPath() throws Exception {
        BundleCodec codec = new BundleCodec(WireLimits.of(4, 64, 256));
        String xml = Xml.text(codec.encode(List.of(SampleMessages.viewChange(2, 1, 2)), BundleCodecTest.fakeSignatures(),
                true, Xml.FACTORY, null));
        // the second prepare of the first certificate of the view-change gets a stray attribute
        int vc = xml.indexOf("<pbft:ViewChange");
        int cert = xml.indexOf("<pbft:Certificate", vc);
        int prepare2 = xml.indexOf("<pbft:Prepare ", xml.indexOf("<pbft:Prepare ", cert) + 1);
        String broken = xml.substring(0, prepare2) + "<pbft:Prepare extra=\"1\" " + xml.substring(prepare2 + 14);
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(Xml.parse(broken)));
        assertEquals("pbft:Messages/pbft:ViewChange[1]/pbft:Certificate[1]/pbft:Prepare[2]", e.element());
        assertEquals("unexpected attribute extra", e.problem());
    }

    @Test
    void randomCorruptionOfAValidBundleIsDecodedOrRefusedButNeverCrashesTheDecoder() {
        BundleCodec codec = new BundleCodec(WireLimits.of(4, 64, 256));
        List<Message> all = SampleMessages.everyType();
        String xml = Xml.text(codec.encode(all, m -> Optional.of(new byte[] {1, 2, 3}), true, Xml.FACTORY, null));
        Random random = new Random(20240604L);
        String alphabet = "<>/=\" abcdefgxyz0123456789-+:AQID!&;";
        int refused = 0;
        int decoded = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder b = new StringBuilder(xml);
            for (int k = 1 + random.nextInt(3); k > 0; k--) {
                int at = random.nextInt(b.length());
                switch (random.nextInt(3)) {
                    case 0 -> b.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> b.deleteCharAt(at);
                    default -> b.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            OMElement parsed;
            try {
                parsed = Xml.parse(b.toString());
            } catch (RuntimeException notWellFormed) {
                continue; // the XML parser's business, before any PBFT decoding
            }
            try {
                codec.decode(parsed);
                decoded++;
            } catch (WireFormatException expected) {
                refused++;
            }
        }
        assertTrue(refused > 500, "most corruptions must be refused, were " + refused + " (decoded " + decoded + ")");
    }

    private static String status(String viewChanging, String targetView, String extra) {
        return "<pbft:Status view=\"1\" viewChanging=\"" + viewChanging + "\" stableSeq=\"0\" lastExecuted=\"0\" targetView=\""
                + targetView + "\" from=\"1\"" + extra + "/>";
    }

    /**
     * Found by BundleXmlFuzzTest (kept in its inputs as crash-7c7bd858...): AXIOM parses a received body lazily, and
     * Woodstox reports a byte that is not UTF-8 met only while the decoder walks the tree as its own unchecked
     * exception, which escaped the decoder.
     */
    @Test
    void aByteThatIsNotUtf8MetWhileTheBundleIsWalkedIsRefusedAsMalformedNotThrownAsAParserException() throws Exception {
        byte[] result = new byte[12_000];
        java.util.Arrays.fill(result, (byte) 'r');
        byte[] xml = WireFuzzSeeds.xmlBundle(List.of(new org.bftws.core.Reply(
                new org.bftws.core.RequestId("urn:uuid:c", 1), 0, result, 1)));
        xml[xml.length - 2_000] = (byte) 0xb1; // inside the base64 text, past what the parser reads at first
        OMElement body = org.apache.axiom.om.OMXMLBuilderFactory.createOMBuilder(
                new java.io.ByteArrayInputStream(xml)).getDocumentElement();
        WireFormatException e = assertThrows(WireFormatException.class,
                () -> new BundleCodec(BundleCodecTest.LIMITS).decode(body));
        assertTrue(e.getMessage().contains("not well-formed XML"), e.getMessage());
    }
}
