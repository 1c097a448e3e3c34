package org.bftws.security.mac;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.wire.KeyedGroup;

/**
 * Writes the seed inputs of {@link MacAuthenticatorFuzzTest} (docs/fuzzing.md) with the profile's own writers: a
 * replica's MACed PBFT bundle, a MACed WS-RM protocol message and a client's request with one MAC per node, over its canonical form and over its bytes. Their
 * keys are this run's, not the fuzz run's, so they end in a MAC mismatch after every reader has read them. Run once
 * by hand ({@code java -cp ... org.bftws.security.mac.MacFuzzSeeds bftws-module/src/test/resources}).
 */
public final class MacFuzzSeeds {
    private MacFuzzSeeds() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]).resolve(
                "org/bftws/security/mac/MacAuthenticatorFuzzTestInputs/aReceivedMessageIsAuthenticatedOrRefusedWithAReason");
        Files.createDirectories(out);
        Path keys = Files.createTempDirectory("mac-seeds");
        KeyedGroup group = new KeyedGroup(keys, "mac", "EchoService");
        MacAuthenticator replica0 = MacFixtures.authenticator(group, "replica0");
        String to = "http://127.0.0.1:9101" + KeyedGroup.controlPath();
        write(out, "seed-bundle-from-replica0.xml", MacFixtures.sent(replica0, group, to,
                MacFixtures.envelope(to, "urn:uuid:s-01", MacFixtures.bundle(group))));
        write(out, "seed-close-sequence-from-replica0.xml", MacFixtures.sent(replica0, group, to,
                MacFixtures.envelope(to, "urn:uuid:s-01", "<wsrm:CloseSequence><wsrm:Identifier>urn:uuid:s-01"
                        + "</wsrm:Identifier><wsrm:LastMsgNumber>7</wsrm:LastMsgNumber></wsrm:CloseSequence>")));
        MessageContext request = new MessageContext();
        request.setEnvelope(MacFixtures.parse(MacFixtures.envelope(to, "urn:uuid:client-seq",
                "<ns:echo xmlns:ns=\"urn:e\"><ns:item a=\"1\">x</ns:item><!-- c --><![CDATA[y]]></ns:echo>")));
        request.setTo(new EndpointReference(to));
        MacFixtures.authenticator(group, "client1").protect(request, group.group);
        write(out, "seed-request-from-client1.xml", MacFixtures.text(request.getEnvelope()));
        // the same request as the module's client sends it: its authenticator covers the bytes (covers="bytes")
        MessageContext sealed = new MessageContext();
        sealed.setConfigurationContext(org.apache.axis2.context.ConfigurationContextFactory
                .createEmptyConfigurationContext());
        sealed.setEnvelope(MacFixtures.parse(MacFixtures.envelope(to, "urn:uuid:client-seq",
                "<ns:echo xmlns:ns=\"urn:e\"><ns:item a=\"1\">x</ns:item></ns:echo>")));
        sealed.setTo(new EndpointReference(to));
        sealed.setTransportOut(new org.bftws.axis2.delivery.ReplyCapture().description());
        sealed.setProperty(org.bftws.security.SignedEnvelope.SIGNED_LAST, Boolean.TRUE);
        MacFixtures.authenticator(group, "client1").protect(sealed, group.group);
        Files.write(out.resolve("seed-request-over-bytes-from-client1.xml"),
                org.bftws.security.SignedEnvelope.bytesToSend(sealed).orElseThrow());
    }

    private static void write(Path dir, String name, String xml) throws IOException {
        Files.write(dir.resolve(name), xml.getBytes(StandardCharsets.UTF_8));
    }
}
