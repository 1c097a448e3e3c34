package org.bftws.axis2.rm;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.wire.MalformedXml;

/**
 * Fuzz target (docs/fuzzing.md): the WS-RM 1.1 header and body readers on a received SOAP envelope, parsed lazily
 * by AXIOM as Axis2's HTTP transport parses it. Every reader either returns or refuses with an {@link RmFault} (the
 * WS-RM fault the node answers with), also for XML that turns out not to be well formed only where the reader walks
 * it (InvalidMessage). Anything else thrown is a crash. Bytes whose envelope AXIOM cannot even open never reach a
 * handler: the transport refuses them.
 */
class RmReadersFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void everyRmReaderReturnsOrRefusesAnyEnvelope(byte[] bytes) {
        SOAPEnvelope envelope;
        try {
            envelope = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(bytes), null)
                    .getSOAPEnvelope();
        } catch (RuntimeException notSoap) {
            if (!MalformedXml.isParserRefusal(notSoap)) {
                throw notSoap;
            }
            return; // the transport refuses it before any handler runs
        }
        refusedOrRead(() -> RmHeaders.sequence(envelope));
        refusedOrRead(() -> RmHeaders.acknowledgements(envelope));
        refusedOrRead(() -> RmHeaders.ackRequests(envelope));
        refusedOrRead(() -> RmBodies.readCreateSequence(body(envelope)));
        refusedOrRead(() -> RmBodies.readCreateSequenceResponse(body(envelope)));
        refusedOrRead(() -> RmBodies.identifier(body(envelope), "CloseSequence"));
        refusedOrRead(() -> RmBodies.identifier(body(envelope), "TerminateSequence"));
    }

    private static OMElement body(SOAPEnvelope envelope) throws RmFault {
        return RmBodies.of(envelope); // as RmControlReceiver takes it
    }

    private interface Reader {
        Object read() throws RmFault;
    }

    private static void refusedOrRead(Reader reader) {
        try {
            reader.read();
        } catch (RmFault refused) {
            // a documented refusal
        }
    }
}
