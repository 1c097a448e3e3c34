package org.bftws.wire.costs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.crypto.Mac;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.RequestRef;
import org.bftws.core.ViewChange;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.PartyKeystore;
import org.bftws.security.RelayedRequestVerifier;
import org.bftws.security.WsSecurity;
import org.bftws.security.mac.MacAuthenticator;
import org.bftws.wire.BinaryCodec;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.CanonicalForm;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.NodeDirectory;
import org.bftws.wire.ProofVerifier;
import org.bftws.wire.Proofs;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireLimits;
import org.bftws.wire.WireMessage;

/**
 * What {@code ./bftws wire-costs} runs: prints what the wire format and message authentication cost per message on this
 * machine, with the deployment's real keys (Ed25519 proof keys, RSA-2048, HMAC-SHA256): encode and decode of a
 * typical prepare, a 64-request pre-prepare and a view-change with 10 prepared certificates; the mac profile's
 * authenticator; embedded signatures, and for comparison the signature schemes not used for them. Medians and 90th
 * percentiles after a warm-up; no assertions (docs/wire.md quotes the figures).
 */
public final class WireCosts {
    private static final String CONTROL = "http://127.0.0.1:9301/axis2/services/BftControl";

    private WireCosts() {
    }

    /** Measures and prints the table; {@code quick}: fewer repetitions, a smoke run. */
    public static void run(boolean quick) throws Exception {
        CostTable table = quick ? new CostTable(200, 200) : new CostTable(3000, 2000);
        Path dir = Files.createTempDirectory("bftws-wire-costs");
        try {
            run(CostDeployment.create(dir), table, quick);
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void run(ReplicasConfig config, CostTable table, boolean quick) throws Exception {
        GroupConfig group = config.groups().get(0);
        NodeDirectory nodes = NodeDirectory.of(group);
        char[] pw = config.keys().storePassword().toCharArray();
        MessageSigner[] signers = new MessageSigner[4];
        for (int i = 0; i < 4; i++) {
            signers[i] = MessageSigner.forNode(PartyKeystore.load(group.nodes().get(i).keystore(), "replica" + i, pw), nodes);
        }
        Prepare prepare = new Prepare(3, 1017, Digest.of("batch".getBytes(StandardCharsets.UTF_8)), 2);
        PrePrepare prePrepare = prePrepare(3, 1017, 64);
        ViewChange viewChange = viewChange(4, 10);
        SignatureCache everything = new SignatureCache(10_000);
        for (Message m : List.of(prepare, prePrepare, viewChange)) {
            for (Message part : Proofs.signedParts(m)) {
                everything.put(part, signers[part.sender()].sign(part));
            }
        }
        BundleCodec codec = new BundleCodec(WireLimits.forGroup(group));
        BinaryCodec binary = new BinaryCodec(WireLimits.forGroup(group));
        OMFactory factory = OMAbstractFactory.getOMFactory();

        System.out.println("BFT-WS wire costs (" + Runtime.getRuntime().availableProcessors() + " CPUs, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ")");
        table.header("PBFT messages as one pbft:Messages bundle, signatures embedded");
        for (Message m : List.of(prepare, prePrepare, viewChange)) {
            String name = m.getClass().getSimpleName() + (m instanceof PrePrepare pp ? " (" + pp.batch().size()
                    + " requests)" : m instanceof ViewChange vc ? " (" + vc.prepared().size() + " certificates)" : "");
            byte[] xml = serialize(codec.encode(List.of(m), everything, true, factory, null));
            System.out.printf("  %s: %d bytes of XML, %d canonical bytes, %d embedded signatures%n", name, xml.length,
                    CanonicalForm.of(m).length, Proofs.signedParts(m).size());
            table.measure("encode " + name + " (AXIOM tree + serialise)",
                    () -> serialize(codec.encode(List.of(m), everything, true, factory, null)));
            table.measure("decode " + name + " (parse + strict decode)", () -> codec.decode(parse(xml)));
            table.measure("canonical form of " + name, () -> CanonicalForm.of(m));
            byte[] frame = binary.encode(List.of(m), everything, true);
            System.out.printf("  %s: %d bytes as a binary channel frame payload%n", name, frame.length);
            table.measure("encode " + name + " as a binary frame payload", () -> binary.encode(List.of(m), everything, true));
            table.measure("decode " + name + "'s binary frame payload (strict)", () -> binary.decode(frame));
        }

        MacAuthenticator mac0 = new MacAuthenticator(config, "replica0", g -> WsSecurity.forParty(config, "replica0", g));
        MacAuthenticator mac1 = new MacAuthenticator(config, "replica1", g -> WsSecurity.forParty(config, "replica1", g));
        table.header("mac profile: HMAC-SHA256 authenticator between two replicas (whole SOAP message)");
        for (Message m : List.of(prepare, prePrepare)) {
            String name = m.getClass().getSimpleName();
            String body = new String(serialize(codec.encode(List.of(m), everything, true, factory, null)),
                    StandardCharsets.UTF_8);
            String plain = envelope(body);
            MessageContext out = outgoing(plain);
            // protect() replaces an earlier authenticator, so one in-memory message can be protected again and again
            table.measure("create authenticator, " + name + " bundle in memory", () -> {
                mac0.protect(out, group);
                return out;
            });
            byte[] wire = serialize(out.getEnvelope());
            table.measure("parse + verify authenticator, " + name + " bundle", () -> {
                MessageContext in = new MessageContext();
                in.setEnvelope(envelopeOf(wire));
                in.setServerSide(true);
                return mac1.authenticate(in, group);
            });
            byte[] input = new WireBundle(List.of(WireMessage.of(m, everything))).canonicalBytes();
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(PartyKeystore.load(group.nodes().get(0).keystore(), "replica0", pw).macKeyWith("replica1").orElseThrow());
            table.measure("HMAC-SHA256 alone over the " + input.length + " canonical bytes", () -> hmac.doFinal(input));
        }

        DeploymentTrust trust = DeploymentTrust.load(config.keys().truststore(), pw);
        RelayedRequestVerifier requests = RelayedRequestVerifier.forGroup(config, group);
        ProofVerifier verifier = new ProofVerifier(nodes, trust, new SignatureCache(10), requests);
        byte[] prepareSig = signers[2].sign(prepare);
        table.header("embedded signatures (Ed25519 proof keys, BouncyCastle lightweight API)");
        int rsaRuns = quick ? 50 : 300;
        table.measure("sign a Prepare", () -> signers[2].sign(prepare));
        table.measure("verify a Prepare's signature", () -> verifier.valid(prepare, prepareSig));
        table.measure("sign a ViewChange with 10 certificates", () -> signers[viewChange.sender()].sign(viewChange),
                rsaRuns / 2, rsaRuns);
        WireMessage vcReceived = WireMessage.of(viewChange, everything);
        int parts = Proofs.signedParts(viewChange).size();
        table.measure("verifyProofs, ViewChange with 10 certificates (" + parts + " signatures)", () -> {
            new ProofVerifier(nodes, trust, new SignatureCache(100), requests).verifyProofs(vcReceived, 0);
            return null;
        }, rsaRuns / 3, rsaRuns / 2);
        SignatureCache warm = new SignatureCache(100);
        ProofVerifier cached = new ProofVerifier(nodes, trust, warm, requests);
        cached.verifyProofs(vcReceived, 0);
        table.measure("verifyProofs, the same ViewChange again (all in the cache)", () -> {
            cached.verifyProofs(vcReceived, 0);
            return null;
        });
        byte[] signedRequest = signedRequest(config, group);
        table.measure("verify a relayed client request (WS-Security, " + signedRequest.length + " bytes)",
                () -> requests.verify(signedRequest), rsaRuns / 2, rsaRuns);
        alternatives(PartyKeystore.load(group.nodes().get(2).keystore(), "replica2", pw), prepare, table, rsaRuns);
        System.out.println("\n(sink " + (table.sink() == null ? 0 : 1) + ")");
    }

    /**
     * What the embedded signature of a Prepare would cost with the schemes not chosen (docs/architecture.md): the
     * node's RSA-2048 WS-Security key (SHA256withRSA, the proofs' scheme before) and the JDK's own Ed25519 provider
     * with the node's proof key, over input of the size the real signatures cover.
     */
    private static void alternatives(PartyKeystore keys, Prepare prepare, CostTable table, int runs) throws Exception {
        byte[] input = new byte[CanonicalForm.of(prepare).length + 64]; // canonical form, domain and group name
        table.header("for comparison, the same " + input.length + " bytes signed with schemes not used for proofs");
        for (String[] scheme : new String[][] {{"SHA256withRSA", "RSA-2048"}, {"Ed25519", "JDK Ed25519 provider"}}) {
            java.security.PrivateKey key = scheme[0].equals("Ed25519") ? keys.proofKey().orElseThrow() : keys.privateKey();
            java.security.PublicKey publicKey = scheme[0].equals("Ed25519")
                    ? keys.proofChain().get(0).getPublicKey() : keys.certificate().getPublicKey();
            java.security.Signature signer = java.security.Signature.getInstance(scheme[0]);
            signer.initSign(key);
            table.measure("sign, " + scheme[1], () -> {
                signer.update(input);
                return signer.sign();
            }, runs / 2, runs);
            signer.update(input);
            byte[] signature = signer.sign();
            java.security.Signature verifier = java.security.Signature.getInstance(scheme[0]);
            table.measure("verify, " + scheme[1], () -> {
                verifier.initVerify(publicKey);
                verifier.update(input);
                return verifier.verify(signature);
            }, runs / 2, runs);
        }
    }

    private static PrePrepare prePrepare(int view, long seq, int requests) {
        List<RequestRef> refs = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            refs.add(new Request(new RequestId("urn:uuid:" + java.util.UUID.nameUUIDFromBytes(new byte[] {(byte) i}),
                    1 + seq), new byte[600]).ref());
        }
        return new PrePrepare(view, seq, new Batch(refs), Math.floorMod(view, 4));
    }

    /** A view-change whose 10 certificates each hold a 64-request pre-prepare and 2 prepares. */
    private static ViewChange viewChange(int newView, int certs) {
        Digest state = Digest.of("state".getBytes(StandardCharsets.UTF_8));
        List<Checkpoint> proof = List.of(new Checkpoint(1024, state, 0), new Checkpoint(1024, state, 1),
                new Checkpoint(1024, state, 2));
        List<PreparedCertificate> prepared = new ArrayList<>();
        int view = newView - 1;
        for (int i = 0; i < certs; i++) {
            PrePrepare pp = prePrepare(view, 1025 + i, 64);
            prepared.add(new PreparedCertificate(pp, List.of(new Prepare(view, pp.seq(), pp.digest(), (pp.sender() + 1) % 4),
                    new Prepare(view, pp.seq(), pp.digest(), (pp.sender() + 2) % 4))));
        }
        return new ViewChange(newView, 1024, state, proof, prepared, 1);
    }

    private static String envelope(String body) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>" + CONTROL + "</wsa:To><wsa:MessageID>urn:uuid:5d1c7a52-8f8e-4c53-b4c4-3d8b1f0e9a11"
                + "</wsa:MessageID><wsa:Action>urn:bftws:pbft</wsa:Action>"
                + "<wsrm:Sequence soapenv:mustUnderstand=\"1\"><wsrm:Identifier>urn:uuid:replica0-replica1-1"
                + "</wsrm:Identifier><wsrm:MessageNumber>4711</wsrm:MessageNumber></wsrm:Sequence>"
                + "</soapenv:Header><soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>";
    }

    private static MessageContext outgoing(String xml) throws Exception {
        MessageContext out = new MessageContext();
        out.setEnvelope(envelopeOf(xml.getBytes(StandardCharsets.UTF_8)));
        out.getEnvelope().build();
        out.setTo(new EndpointReference(CONTROL));
        return out;
    }

    private static byte[] signedRequest(ReplicasConfig config, GroupConfig group) throws Exception {
        String xml = envelope("<ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>" + "x".repeat(100)
                + "</ns:text></ns:echo>");
        return serialize(WsSecurity.forParty(config, "client1", group).sign(envelopeOf(xml.getBytes(StandardCharsets.UTF_8))));
    }

    private static SOAPEnvelope envelopeOf(byte[] xml) {
        return OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(xml), "UTF-8").getSOAPEnvelope();
    }

    private static OMElement parse(byte[] xml) {
        OMElement e = OMXMLBuilderFactory.createOMBuilder(new ByteArrayInputStream(xml)).getDocumentElement();
        e.build();
        return e;
    }

    private static byte[] serialize(OMElement e) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        e.serialize(out);
        return out.toByteArray();
    }
}
