package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.core.Checkpoint;
import org.bftws.core.Commit;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.StateSnapshot;
import org.bftws.core.ViewChange;
import org.bftws.security.RefusalReason;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded signatures with the deployment's real Ed25519 proof keys: a message reaches the core only when every transferable
 * message in it, at any depth, is signed by its claimed sender, and every relayed client request by its client.
 */
class ProofVerifierTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;
    static MessageSigner[] signers = new MessageSigner[4];
    static final BundleCodec CODEC = new BundleCodec(WireLimits.of(4, 64, 256));

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
        for (int i = 0; i < 4; i++) {
            signers[i] = group.signer(i);
        }
    }

    /** Every signed part signed by its own sender's key, as correct nodes do. */
    private static Map<Message, byte[]> signedByTheirSenders(Message m) {
        Map<Message, byte[]> sigs = new HashMap<>();
        for (Message part : Proofs.signedParts(m)) {
            sigs.put(part, signers[part.sender()].sign(part));
        }
        return sigs;
    }

    /** {@code m} with {@code sigs} as it arrives: encoded, sent as XML text, decoded. */
    private static WireMessage arrived(Message m, Map<Message, byte[]> sigs) throws WireFormatException {
        String xml = Xml.text(CODEC.encode(List.of(m), x -> Optional.ofNullable(sigs.get(x)), false, Xml.FACTORY, null));
        return CODEC.decode(Xml.parse(xml)).messages().get(0);
    }

    private static ProofRefusal refused(WireMessage w, int from) {
        return assertThrows(ProofRefusal.class, () -> group.verifier(new SignatureCache(1000)).verifyProofs(w, from));
    }

    @Test
    void aNewViewWhoseNestedProofsAreAllSignedByTheirSendersPassesAndItsSignaturesAreKept() throws Exception {
        NewView nv = SampleMessages.newView();
        SignatureCache cache = new SignatureCache(1000);
        group.verifier(cache).verifyProofs(arrived(nv, signedByTheirSenders(nv)), 2);
        for (Message part : Proofs.signedParts(nv)) {
            assertTrue(cache.contains(part), part + " is kept for embedding later");
        }
        assertEquals(new java.util.HashSet<>(Proofs.signedParts(nv)).size(), cache.size());
    }

    @Test
    void aPrepareForgedInAnotherNodesNameInsideACertificateIsRefused() throws Exception {
        // node 3 is faulty: it builds a certificate for slot 129 with a prepare "from node 1" that it signs itself
        PreparedCertificate honest = SampleMessages.certificate(0, 129, 3);
        Prepare forged = new Prepare(0, 129, honest.digest(), 1);
        PreparedCertificate cert = new PreparedCertificate(honest.prePrepare(),
                List.of(forged, new Prepare(0, 129, honest.digest(), 3)));
        ViewChange vc = new ViewChange(1, 128, SampleMessages.STATE_128, SampleMessages.stableProof(128,
                SampleMessages.STATE_128), List.of(cert), 3);
        Map<Message, byte[]> sigs = signedByTheirSenders(vc);
        sigs.put(forged, forgeAs(3, forged));
        ProofRefusal e = refused(arrived(vc, sigs), 3);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains("Prepare(v0 n129 " + honest.digest() + " from 1) inside ViewChange"), e.getMessage());
        assertTrue(e.getMessage().contains("is not signed by node 1 (replica1)"), e.getMessage());
    }

    /** A signature by node {@code signer}'s proof key over {@code m}, which claims another sender. */
    private static byte[] forgeAs(int signer, Message m) {
        PrivateKey key = group.keys(group.nodes.name(signer)).proofKey().orElseThrow();
        return new MessageSigner(key, m.sender(), group.nodes.group()).sign(m);
    }

    @Test
    void aPrepareSignedWithAnotherNodesProofKeyIsRefusedEvenFromItsClaimedSender() throws Exception {
        // node 3 holds only its own key; what it signs in node 1's name does not verify with node 1's registered key
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        ProofRefusal e = refused(arrived(p, Map.of(p, forgeAs(3, p))), 1);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains("is not signed by node 1 (replica1)"), e.getMessage());
    }

    @Test
    void aSignatureWithTheNodesWsSecurityKeyIsNoProof() throws Exception {
        // the RSA key the node signs SOAP messages with is not its proof key, even over the very bytes proofs cover
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        java.security.Signature rsa = java.security.Signature.getInstance("SHA256withRSA");
        rsa.initSign(group.keys("replica1").privateKey());
        rsa.update(SigningInput.of(group.nodes.group(), p));
        byte[] signature = rsa.sign();
        assertFalse(group.verifier(new SignatureCache(10)).valid(p, signature));
        assertFalse(group.verifier(new SignatureCache(10)).valid(p, java.util.Arrays.copyOf(signature, 64)));
    }

    @Test
    void aViewChangeWhoseEmbeddedCheckpointWasChangedOnTheWayIsRefused() throws Exception {
        ViewChange vc = SampleMessages.viewChange(2, 1, 2);
        Map<Message, byte[]> sigs = signedByTheirSenders(vc);
        String xml = Xml.text(CODEC.encode(List.of(vc), x -> Optional.of(sigs.get(x)), true, Xml.FACTORY, null));
        // on the way, node 0's checkpoint in the view-change's proof is made to claim node 3
        int cp = xml.indexOf("from=\"0\"", xml.indexOf("<pbft:Checkpoint"));
        String tampered = xml.substring(0, cp) + "from=\"3\"" + xml.substring(cp + 8);
        ProofRefusal e = refused(CODEC.decode(Xml.parse(tampered)).messages().get(0), 1);
        // the outermost signature covering the change fails first: the view-change's own
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains(vc + " is not signed by node 1"), e.getMessage());
    }

    @Test
    void aNewViewWhoseReproposalWasChangedOnTheWayIsRefused() throws Exception {
        NewView nv = SampleMessages.newView();
        Map<Message, byte[]> sigs = signedByTheirSenders(nv);
        PrePrepare changed = new PrePrepare(2, 131, nv.prePrepares().get(0).batch(), 2);
        List<PrePrepare> reproposed = List.of(nv.prePrepares().get(0), nv.prePrepares().get(1), changed);
        NewView tampered = new NewView(2, nv.viewChanges(), reproposed, 2);
        sigs.put(tampered, sigs.get(nv));
        sigs.put(changed, sigs.get(nv.prePrepares().get(2)));
        ProofRefusal e = refused(arrived(tampered, sigs), 2);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains(tampered + " is not signed by node 2"), e.getMessage());
    }

    @Test
    void aDeepPrepareWhoseSignatureWasAlteredIsRefused() throws Exception {
        ViewChange vc = SampleMessages.viewChange(2, 1, 2);
        Map<Message, byte[]> sigs = signedByTheirSenders(vc);
        Prepare deep = vc.prepared().get(1).prepares().get(1);
        sigs.get(deep)[10] ^= 1;
        ProofRefusal e = refused(arrived(vc, sigs), 1);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains(deep + " inside ViewChange"), e.getMessage());
    }

    @Test
    void anEmbeddedMessageWithoutItsSignatureIsRefused() throws Exception {
        ViewChange vc = SampleMessages.viewChange(1, 3, 2);
        Map<Message, byte[]> sigs = signedByTheirSenders(vc);
        Checkpoint unsigned = vc.stableProof().get(1);
        sigs.remove(unsigned);
        ProofRefusal e = refused(arrived(vc, sigs), 3);
        assertEquals(RefusalReason.UNSIGNED_PROOF, e.reason());
        assertTrue(e.getMessage().contains(unsigned + " inside ViewChange"), e.getMessage());
    }

    @Test
    void aPrepareFromItsOwnSenderWithAWorthlessSignatureIsRefusedSoItCannotPoisonALaterCertificate() throws Exception {
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        ProofRefusal e = refused(arrived(p, Map.of(p, new byte[64])), 1);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        ProofRefusal none = refused(arrived(p, Map.of()), 1);
        assertEquals(RefusalReason.UNSIGNED_PROOF, none.reason());
    }

    @Test
    void aPrePrepareRelayedByABackupIsAcceptedOnThePrimarysSignature() throws Exception {
        PrePrepare pp = SampleMessages.prePrepare(0, 12, 4);
        group.verifier(new SignatureCache(10)).verifyProofs(arrived(pp, signedByTheirSenders(pp)), 2);
        Map<Message, byte[]> byTheRelayer = Map.of(pp, forgeAs(2, pp));
        ProofRefusal e = refused(arrived(pp, byTheRelayer), 2);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
    }

    @Test
    void aCommitNeedsNoSignatureFromItsSenderButMayNotBeRelayed() throws Exception {
        Commit c = new Commit(0, 9, SampleMessages.STATE_128, 1);
        group.verifier(new SignatureCache(10)).verifyProofs(arrived(c, Map.of()), 1);
        ProofRefusal e = refused(arrived(c, Map.of()), 2);
        assertEquals(RefusalReason.NOT_FROM_SENDER, e.reason());
        assertTrue(e.getMessage().contains("claims node 1 (replica1) as sender but came from node 2 (replica2)"),
                e.getMessage());
    }

    @Test
    void aMessageFromOutsideTheGroupIsRefused() throws Exception {
        Commit c = new Commit(0, 9, SampleMessages.STATE_128, 1);
        assertEquals(RefusalReason.UNKNOWN_PEER, refused(arrived(c, Map.of()), 7).reason());
    }

    @Test
    void aSignatureMadeForAnotherGroupDoesNotVerifyInThisOne() throws Exception {
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        MessageSigner elsewhere = new MessageSigner(group.keys("replica1").proofKey().orElseThrow(), 1, "OtherService");
        assertEquals(RefusalReason.FORGED_PROOF, refused(arrived(p, Map.of(p, elsewhere.sign(p))), 1).reason());
    }

    @Test
    void aValueVerifiedOnceIsNotCheckedAgainAndKeepsItsGoodSignatureInTheCache() throws Exception {
        Prepare p = new Prepare(0, 9, SampleMessages.STATE_128, 1);
        byte[] good = signers[1].sign(p);
        SignatureCache cache = new SignatureCache(10);
        ProofVerifier verifier = group.verifier(cache);
        verifier.verifyProofs(arrived(p, Map.of(p, good)), 1);
        verifier.verifyProofs(arrived(p, Map.of(p, new byte[] {1})), 2); // relayed later with junk attached
        assertEquals(java.util.Arrays.toString(good), java.util.Arrays.toString(cache.signatureOf(p).orElseThrow()));
    }

    @Test
    void aStateSnapshotIsAcceptedOnlyWithEveryProofCheckpointSigned() throws Exception {
        StateSnapshot s = new StateSnapshot(128, new byte[] {1, 2, 3}, SampleMessages.stableProof(128,
                SampleMessages.STATE_128), 0);
        Map<Message, byte[]> sigs = signedByTheirSenders(s);
        group.verifier(new SignatureCache(10)).verifyProofs(arrived(s, sigs), 0);
        sigs.remove(s.proof().get(2));
        assertEquals(RefusalReason.UNSIGNED_PROOF, refused(arrived(s, sigs), 0).reason());
    }

    // relayed client requests: the client's own WS-Security signature vouches for them

    /** A sequence client1 created (its identifier names its owner). */
    private static final String SEQ_A = org.bftws.rm.SequenceIds.derive("uuid-a",
            java.net.URI.create("http://group.bftws.test/axis2/services/EchoService"), "client1");

    private static Request clientRequest(String sequence, long number, String text, long idNumber) throws Exception {
        return requestSignedBy("client1", sequence, number, text, idNumber);
    }

    private static Request requestSignedBy(String party, String sequence, long number, String text, long idNumber)
            throws Exception {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>http://group.bftws.test/axis2/services/EchoService</wsa:To>"
                + "<wsa:MessageID>urn:uuid:msg-" + number + "</wsa:MessageID><wsa:Action>urn:echo</wsa:Action>"
                + "<wsrm:Sequence><wsrm:Identifier>" + sequence + "</wsrm:Identifier><wsrm:MessageNumber>" + number
                + "</wsrm:MessageNumber></wsrm:Sequence></soapenv:Header><soapenv:Body>"
                + "<ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>" + text + "</ns:text></ns:echo>"
                + "</soapenv:Body></soapenv:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(new java.io.StringReader(xml)).getSOAPEnvelope();
        SOAPEnvelope signed = group.wsSecurity(party).sign(env);
        java.io.StringWriter w = new java.io.StringWriter();
        signed.serialize(w);
        return new Request(new RequestId(sequence, idNumber), w.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRelayedRequestSignedByItsClientIsAccepted() throws Exception {
        Request r = clientRequest(SEQ_A, 1, "pay 10", 1);
        group.verifier(new SignatureCache(10)).verifyProofs(arrived(new ForwardedRequests(List.of(r), 2), Map.of()), 2);
    }

    @Test
    void aRelayedRequestChangedByTheRelayerIsRefusedAsTampered() throws Exception {
        Request r = clientRequest(SEQ_A, 1, "pay 10", 1);
        byte[] changed = new String(r.payload(), StandardCharsets.UTF_8).replace("pay 10", "pay 99")
                .getBytes(StandardCharsets.UTF_8);
        Request forged = new Request(r.id(), changed);
        ProofRefusal e = refused(arrived(new ForwardedRequests(List.of(forged), 2), Map.of()), 2);
        assertEquals(RefusalReason.TAMPERED, e.reason());
        assertTrue(e.getMessage().contains("request " + SEQ_A + "#1 relayed in"), e.getMessage());
    }

    @Test
    void aRelayedRequestPresentedUnderAnotherRequestIdIsRefused() throws Exception {
        Request r = clientRequest(SEQ_A, 1, "pay 10", 2);
        ProofRefusal e = refused(arrived(new ForwardedRequests(List.of(r), 2), Map.of()), 2);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains("its client signed message 1 of sequence " + SEQ_A + ", not this request id"),
                e.getMessage());
    }

    @Test
    void anUnsignedRelayedRequestIsRefused() throws Exception {
        Request r = new Request(new RequestId("urn:uuid:seq-A", 1), ("<soapenv:Envelope xmlns:soapenv=\"http://"
                + "schemas.xmlsoap.org/soap/envelope/\"><soapenv:Body/></soapenv:Envelope>").getBytes(StandardCharsets.UTF_8));
        assertEquals(RefusalReason.UNSIGNED, refused(arrived(new ForwardedRequests(List.of(r), 2), Map.of()), 2).reason());
    }

    @Test
    void aRelayedRequestSignedByAnotherPartyThanTheSequencesCreatorIsRefused() throws Exception {
        // a faulty primary relaying a request a replica's key signed on client1's sequence: never ordered
        Request r = requestSignedBy("replica3", SEQ_A, 2, "pay 99 to replica3", 2);
        ProofRefusal e = refused(arrived(new ForwardedRequests(List.of(r), 2), Map.of()), 2);
        assertEquals(RefusalReason.FORGED_PROOF, e.reason());
        assertTrue(e.getMessage().contains("signed by replica3, who did not create sequence " + SEQ_A), e.getMessage());
    }
}
