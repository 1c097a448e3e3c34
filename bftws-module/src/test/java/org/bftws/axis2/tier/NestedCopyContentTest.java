package org.bftws.axis2.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.jupiter.api.Test;

/**
 * What makes two caller replicas' copies of a nested request the same request: everything but the sender's own
 * authentication (its wsse:Security header or mac:RequestAuthenticator, and the wsu:Id its signer gave each part).
 */
class NestedCopyContentTest {

    private static final String WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

    /** A copy as a caller replica sends it, signed by {@code signer}, with an optional extra header. */
    private static SOAPEnvelope copy(String signer, String idPrefix, String extraHeader, String item) {
        String xml = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'"
                + " xmlns:wsa='http://www.w3.org/2005/08/addressing'><s:Header>"
                + "<wsse:Security xmlns:wsse='http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'>"
                + "<sig>" + signer + "</sig></wsse:Security>"
                + "<mac:RequestAuthenticator xmlns:mac='urn:bftws:mac:1' from='" + signer + "'>"
                + "<mac:Entry to='replica0'>" + signer + "-mac</mac:Entry></mac:RequestAuthenticator>"
                + "<wsrm:Sequence xmlns:wsrm='http://docs.oasis-open.org/ws-rx/wsrm/200702' xmlns:u='" + WSU
                + "' u:Id='" + idPrefix + "-1'><wsrm:Identifier>urn:uuid:v</wsrm:Identifier>"
                + "<wsrm:MessageNumber>7</wsrm:MessageNumber></wsrm:Sequence>"
                + "<wsa:MessageID xmlns:w='" + WSU + "' w:Id='" + idPrefix + "-2'>urn:uuid:m7</wsa:MessageID>"
                + "<wsa:Action>http://bftws.org/samples/echo/echo</wsa:Action>" + extraHeader
                + "</s:Header><s:Body xmlns:u='" + WSU + "' u:Id='" + idPrefix + "-3'>"
                + "<e:echo xmlns:e='http://bftws.org/samples/echo'><e:item>" + item + "</e:item></e:echo>"
                + "</s:Body></s:Envelope>";
        return OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), null).getSOAPEnvelope();
    }

    @Test
    void copiesThatDifferOnlyInTheirSendersAuthenticationAndSignatureIdsAreTheSameRequest() {
        assertArrayEquals(NestedAdmission.content(copy("relay0", "id-aaa", "", "m1")),
                NestedAdmission.content(copy("relay1", "id-bbb", "", "m1")));
    }

    @Test
    void aCopyWithAnotherBodyOrAnExtraHeaderTheServiceCouldReadIsAnotherRequest() {
        byte[] correct = NestedAdmission.content(copy("relay0", "id-a", "", "m1"));
        assertFalse(Arrays.equals(correct, NestedAdmission.content(copy("relay1", "id-a", "", "m2"))));
        assertFalse(Arrays.equals(correct, NestedAdmission.content(copy("relay1", "id-a",
                "<x:Account xmlns:x='urn:example'>other</x:Account>", "m1"))),
                "a faulty caller replica's header would reach the service of the callee replica that executes it");
    }
}
