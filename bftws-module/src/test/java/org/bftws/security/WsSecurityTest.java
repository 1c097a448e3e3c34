package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wssec profile as a library: what verifies, and why each forgery is refused. */
class WsSecurityTest {
    private static final String TO = "http://echo.bftws.group/axis2/services/EchoService";
    @TempDir
    static Path dir;
    @TempDir
    static Path otherDir;
    static Deployment deployment;
    static Deployment other;

    @BeforeAll
    static void keygen() {
        deployment = new Deployment(dir, "wssec");
        other = new Deployment(otherDir, "wssec");
    }

    private static String signedRequest(WsSecurity signer, String text) throws SecurityRefusal {
        return Envelopes.text(signer.sign(Envelopes.parse(Envelopes.request(TO, text))));
    }

    private static SecurityRefusal refused(String xml) {
        return assertThrows(SecurityRefusal.class, () -> deployment.security("replica0").verify(Envelopes.parse(xml)));
    }

    @Test
    void aRequestSignedWithKeygenKeysVerifiesAsItsSenderAndCoversBodyTimestampAndHeaders() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "hello");
        AuthenticatedParty party = deployment.security("replica0").verify(Envelopes.parse(signed));
        assertEquals("client1", party.name());
        assertTrue(signed.contains("wsu:Timestamp") && signed.contains("BinarySecurityToken"), signed);
        // replies are signed the same way and every party can verify every other
        assertEquals("replica3", deployment.security("client1")
                .verify(Envelopes.parse(signedRequest(deployment.security("replica3"), "reply"))).name());
    }

    @Test
    void aChangedBodyIsRefusedAsTampered() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "pay 10");
        SecurityRefusal r = refused(signed.replace("pay 10", "pay 99"));
        assertEquals(RefusalReason.TAMPERED, r.reason(), r.getMessage());
        assertTrue(r.getMessage().contains("tampered"), r.getMessage());
    }

    @Test
    void aChangedSequenceNumberIsRefusedAsTampered() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "x");
        SecurityRefusal r = refused(signed.replace(">1</wsrm:MessageNumber>", ">2</wsrm:MessageNumber>"));
        assertEquals(RefusalReason.TAMPERED, r.reason(), r.getMessage());
    }

    @Test
    void anUnsignedMessageIsRefused() {
        SecurityRefusal r = refused(Envelopes.request(TO, "x"));
        assertEquals(RefusalReason.UNSIGNED, r.reason());
        assertTrue(r.getMessage().contains("unsigned"), r.getMessage());
    }

    @Test
    void aCertificateFromAnotherDeploymentsCaIsRefusedAsUntrusted() throws Exception {
        SecurityRefusal r = refused(signedRequest(other.security("client1"), "x"));
        assertEquals(RefusalReason.UNTRUSTED, r.reason(), r.getMessage());
    }

    @Test
    void aCertificateThatACompromisedReplicaIssuedForAClientsNameIsRefused() throws Exception {
        // replica3's certificate is in the truststore, so PKIX alone would accept what its key issues
        char[] pw = "pw".toCharArray();
        PartyKeystore replica3 = PartyKeystore.load(dir.resolve("keys/replica3.p12"), "replica3", pw);
        java.security.KeyPair forgedPair = DeploymentCa.newKeyPair(new java.security.SecureRandom());
        java.security.cert.X509Certificate forged = ForgedCertificates.issue(replica3, "client1", forgedPair.getPublic());
        PartyKeystore fake = new PartyKeystore("client1", forgedPair.getPrivate(),
                java.util.List.of(forged, replica3.certificate()), java.util.Map.of());
        WsSecurity attacker = new WsSecurity(fake, pw, DeploymentTrust.load(dir.resolve("keys/truststore.p12"), pw),
                Duration.ofMinutes(5), Duration.ofMinutes(1), ProtectedParts.defaults(),
                org.apache.wss4j.dom.WSConstants.BST_DIRECT_REFERENCE);
        SecurityRefusal r = refused(signedRequest(attacker, "x"));
        assertEquals(RefusalReason.UNTRUSTED, r.reason(), r.getMessage());
    }

    @Test
    void trustInASignersCertificateIsEstablishedOnceWhileEachMessagesSignatureIsStillChecked() throws Exception {
        WsSecurity replica = deployment.security("replica1");
        WsSecurity client = deployment.security("client1");
        assertEquals("client1", replica.verify(Envelopes.parse(signedRequest(client, "one"))).name());
        assertEquals("client1", replica.verify(Envelopes.parse(signedRequest(client, "two"))).name());
        assertEquals(1, replica.certificatesRemembered(), "one certificate, one path validation");

        String tampered = signedRequest(client, "pay 10").replace("pay 10", "pay 99");
        SecurityRefusal r = assertThrows(SecurityRefusal.class, () -> replica.verify(Envelopes.parse(tampered)));
        assertEquals(RefusalReason.TAMPERED, r.reason(), "a remembered certificate vouches for no signature");
    }

    @Test
    void aCertificateWhosePathFailsIsNeverRememberedAndIsRefusedEveryTime() throws Exception {
        WsSecurity replica = deployment.security("replica2");
        replica.verify(Envelopes.parse(signedRequest(deployment.security("client1"), "trusted first")));
        for (int i = 0; i < 2; i++) {
            String foreign = signedRequest(other.security("client1"), "x" + i);
            SecurityRefusal r = assertThrows(SecurityRefusal.class, () -> replica.verify(Envelopes.parse(foreign)));
            assertEquals(RefusalReason.UNTRUSTED, r.reason(), r.getMessage());
        }
        assertEquals(1, replica.certificatesRemembered(), "only the trusted client's certificate");
    }

    @Test
    void aRequestIsVerifiedAsItsBytesArrivedWhenTheyArePlainUtf8AndAsParsedOtherwise() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "pay 10");
        byte[] tamperedBytes = signed.replace("pay 10", "pay 99").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        org.apache.axis2.context.MessageContext mc = new org.apache.axis2.context.MessageContext();
        mc.setEnvelope(Envelopes.parse(signed));
        mc.setProperty(ReceivedBytes.PROPERTY, tamperedBytes);
        SecurityRefusal r = assertThrows(SecurityRefusal.class, () -> deployment.security("replica0").verify(mc));
        assertEquals(RefusalReason.TAMPERED, r.reason(), "the bytes as received are what was checked");

        mc.setProperty(org.apache.axis2.Constants.Configuration.CHARACTER_SET_ENCODING, "ISO-8859-1");
        assertEquals("client1", deployment.security("replica0").verify(mc).name(),
                "with another charset the envelope AXIOM parsed is what was checked");
    }

    @Test
    void aMessageOlderThanTheTimestampWindowIsRefusedAsStale() throws Exception {
        SecurityRefusal r = refused(signedRequest(deployment.securityWithClock("client1", Duration.ofMinutes(-10)), "x"));
        assertEquals(RefusalReason.STALE, r.reason(), r.getMessage());
        assertTrue(r.getMessage().contains("stale"), r.getMessage());
    }

    @Test
    void aMessageDatedBeyondTheClockSkewIsRefusedAsStale() throws Exception {
        SecurityRefusal r = refused(signedRequest(deployment.securityWithClock("client1", Duration.ofMinutes(3)), "x"));
        assertEquals(RefusalReason.STALE, r.reason(), r.getMessage());
    }

    @Test
    void aSignedBodyMovedIntoAHeaderWithAForgedBodyInItsPlaceIsRefusedAsWrapping() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "pay 10");
        int bodyStart = signed.indexOf("<soapenv:Body");
        int bodyEnd = signed.indexOf("</soapenv:Body>") + "</soapenv:Body>".length();
        String original = signed.substring(bodyStart, bodyEnd);
        String wrapper = "<w:Wrapper xmlns:w=\"urn:attacker\">" + original + "</w:Wrapper>";
        String forged = "<soapenv:Body><ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>pay 99</ns:text></ns:echo>"
                + "</soapenv:Body>";
        String attack = signed.substring(0, bodyStart) + forged + "</soapenv:Envelope>";
        attack = attack.replace("</soapenv:Header>", wrapper + "</soapenv:Header>");
        SecurityRefusal r = refused(attack);
        assertEquals(RefusalReason.NOT_COVERED, r.reason(), r.getMessage());
        assertTrue(r.getMessage().contains("SOAP Body is not signed in place"), r.getMessage());
    }

    @Test
    void aForgedBodyCarryingTheSignedBodysIdIsRefused() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "pay 10");
        int bodyStart = signed.indexOf("<soapenv:Body");
        int bodyEnd = signed.indexOf("</soapenv:Body>") + "</soapenv:Body>".length();
        String original = signed.substring(bodyStart, bodyEnd);
        String bodyTag = original.substring(0, original.indexOf('>') + 1);
        String forged = bodyTag + "<ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>pay 99</ns:text></ns:echo>"
                + "</soapenv:Body>";
        String attack = signed.substring(0, bodyStart) + forged + "</soapenv:Envelope>";
        attack = attack.replace("</soapenv:Header>",
                "<w:Wrapper xmlns:w=\"urn:attacker\">" + original + "</w:Wrapper></soapenv:Header>");
        SecurityRefusal r = refused(attack);
        assertTrue(r.reason() == RefusalReason.NOT_COVERED || r.reason() == RefusalReason.TAMPERED
                || r.reason() == RefusalReason.MALFORMED, r.getMessage());
    }

    @Test
    void anAddressingHeaderAddedAfterSigningIsRefusedAsNotCovered() throws Exception {
        String signed = signedRequest(deployment.security("client1"), "x");
        String attack = signed.replace("</soapenv:Header>",
                "<wsa:ReplyTo><wsa:Address>http://attacker.example/</wsa:Address></wsa:ReplyTo></soapenv:Header>");
        SecurityRefusal r = refused(attack);
        assertEquals(RefusalReason.NOT_COVERED, r.reason(), r.getMessage());
        assertTrue(r.getMessage().contains("ReplyTo"), r.getMessage());
    }

    @Test
    void theSignedCopyIsNewAndTheOriginalEnvelopeIsUnchanged() throws Exception {
        SOAPEnvelope original = Envelopes.parse(Envelopes.request(TO, "x"));
        String before = Envelopes.text(original);
        deployment.security("client1").sign(original);
        assertEquals(before, Envelopes.text(original));
    }
}
