package org.bftws.security.mac;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.security.SecurityRefusal;
import org.bftws.wire.KeyedGroup;
import org.bftws.wire.MalformedXml;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target (docs/fuzzing.md): what the {@code mac} profile reads from a received message, at replica1 of a
 * keyed four-node group: the {@code mac:Authenticator} and {@code mac:RequestAuthenticator} headers, the WS-RM
 * position and headers and the body it writes in canonical form ({@link MacInput}, {@link CanonicalXml}), the PBFT
 * bundle it decodes; and the same bytes as a request another replica relayed ({@link
 * MacAuthenticator#authenticateRelayed}). Each either authenticates or is refused with a {@link SecurityRefusal}
 * (its reason says why); anything else thrown is a crash. Bytes whose envelope AXIOM or Axis2 cannot even open
 * never reach the security handler.
 */
class MacAuthenticatorFuzzTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;
    static MacAuthenticator replica1;

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
        replica1 = MacFixtures.authenticator(group, "replica1");
    }

    @FuzzTest(maxDuration = "10m")
    void aReceivedMessageIsAuthenticatedOrRefusedWithAReason(byte[] bytes) {
        try {
            replica1.authenticateRelayed(bytes, group.group);
        } catch (SecurityRefusal refused) {
            // a documented refusal
        }
        MessageContext in = new MessageContext();
        try {
            SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), null)
                    .getSOAPEnvelope();
            in.setEnvelope(envelope);
            in.setProperty(org.bftws.security.ReceivedBytes.PROPERTY, bytes); // as the module's builder keeps them
        } catch (AxisFault notSoap) {
            return; // the transport refuses it before any handler runs
        } catch (RuntimeException notSoap) {
            if (!MalformedXml.isParserRefusal(notSoap)) {
                throw notSoap;
            }
            return;
        }
        // the authenticator read from the bytes in one pass is the one read from the tree, where both can be read
        String fromBytes = RequestAuthenticatorBytesTest.outcome(
                () -> RequestAuthenticatorHeader.read(org.bftws.soap.SoapHeader.read(bytes)));
        String fromTree = RequestAuthenticatorBytesTest.outcome(() -> RequestAuthenticatorHeader.read(
                (SOAPEnvelope) in.getEnvelope()));
        if (!fromBytes.startsWith("unreadable") && !fromTree.startsWith("unreadable") && !fromBytes.equals(fromTree)) {
            throw new AssertionError("from the bytes: " + fromBytes + "; from the tree: " + fromTree);
        }
        in.setServerSide(true);
        try {
            replica1.authenticate(in, group.group);
        } catch (SecurityRefusal refused) {
            // a documented refusal
        }
    }
}
