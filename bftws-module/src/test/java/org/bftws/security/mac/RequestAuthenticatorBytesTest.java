package org.bftws.security.mac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.bftws.security.SecurityRefusal;
import org.bftws.soap.MalformedSoap;
import org.bftws.soap.SoapHeader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request's authenticator read from its bytes in one pass ({@link SoapHeader}, how a relayed request is checked) is
 * the one read from its AXIOM tree: the same client, entries and coverage, or the same refusal.
 */
class RequestAuthenticatorBytesTest {

    private static final String MAC = Base64.getEncoder().encodeToString(new byte[32]);

    private static String request(String authenticator) {
        return "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Header>"
                + "<wsrm:Sequence xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><wsrm:Identifier>"
                + "urn:uuid:s</wsrm:Identifier><wsrm:MessageNumber>3</wsrm:MessageNumber></wsrm:Sequence>"
                + authenticator + "</s:Header><s:Body><e:echo xmlns:e=\"urn:e\">x</e:echo></s:Body></s:Envelope>";
    }

    private static String authenticator(String attributes, String entries) {
        return "<mac:RequestAuthenticator xmlns:mac=\"urn:bftws:mac:1\" s:mustUnderstand=\"true\" " + attributes + ">"
                + entries + "</mac:RequestAuthenticator>";
    }

    private static String entry(String to, String mac) {
        return "<mac:Entry to=\"" + to + "\">" + mac + "</mac:Entry>";
    }

    static Stream<String> requests() {
        String two = entry("replica0", MAC) + "\n  " + entry("Replica1", " " + MAC + " ");
        return Stream.of(
                request(""),
                request(authenticator("from=\"client1\" covers=\"bytes\"", two)),
                request(authenticator("from=\"client1\"", two + "<!-- c -->")),
                request(authenticator("from=\"client1\" covers=\"canonical\"", two)),
                request(authenticator("", two)),
                request(authenticator("from=\"client1\"", entry("replica0", "not base64!"))),
                request(authenticator("from=\"client1\"", entry("replica0", MAC) + entry("REPLICA0", MAC))),
                request(authenticator("from=\"client1\"", entry("replica0", MAC) + "<mac:Other/>")),
                request(authenticator("from=\"client1\"", "<mac:Entry>" + MAC + "</mac:Entry>")),
                request(authenticator("from=\"client1\"", entry("replica0", MAC.substring(4)))),
                request(authenticator("from=\"client1\"", entry("r", MAC)) + authenticator("from=\"client2\"", "")));
    }

    @ParameterizedTest
    @MethodSource("requests")
    void theAuthenticatorReadFromTheBytesIsTheOneReadFromTheTree(String request) {
        byte[] bytes = request.getBytes(StandardCharsets.UTF_8);
        String fromTree = outcome(() -> RequestAuthenticatorHeader.read(OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(bytes), null).getSOAPEnvelope()));
        String fromBytes = outcome(() -> RequestAuthenticatorHeader.read(SoapHeader.read(bytes)));
        assertEquals(fromTree, fromBytes, request);
        assertTrue(!fromBytes.startsWith("unreadable"), fromBytes);
    }

    @FunctionalInterface
    interface Read {
        RequestAuthenticatorHeader read() throws SecurityRefusal, MalformedSoap;
    }

    /** What a read gave, as text: the authenticator, its refusal, or that the bytes could not be read at all. */
    static String outcome(Read read) {
        try {
            RequestAuthenticatorHeader h = read.read();
            if (h == null) {
                return "none";
            }
            Map<String, String> entries = new TreeMap<>();
            h.entries().forEach((to, mac) -> entries.put(to, Base64.getEncoder().encodeToString(mac)));
            return "from " + h.from() + ", covers bytes " + h.coversBytes() + ", entries " + entries;
        } catch (SecurityRefusal e) {
            return "refused " + e.reason() + ": " + e.getMessage();
        } catch (MalformedSoap | RuntimeException e) {
            return "unreadable: " + e;
        }
    }
}
