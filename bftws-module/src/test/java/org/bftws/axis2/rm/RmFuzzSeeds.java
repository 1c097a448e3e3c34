package org.bftws.axis2.rm;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.bftws.rm.AckRanges;
import org.bftws.rm.InboundSequence;

/**
 * Writes the seed inputs of {@link RmReadersFuzzTest} (docs/fuzzing.md) with the project's own WS-RM writers: an
 * application message with every header, and each protocol body. Run once by hand
 * ({@code java -cp ... org.bftws.axis2.rm.RmFuzzSeeds bftws-module/src/test/resources}).
 */
public final class RmFuzzSeeds {
    static final String DIR = "org/bftws/axis2/RmReadersFuzzTestInputs/everyRmReaderReturnsOrRefusesAnyEnvelope";

    private RmFuzzSeeds() {
    }

    public static void main(String[] args) throws IOException, XMLStreamException {
        Path dir = Path.of(args[0]).resolve(DIR);
        Files.createDirectories(dir);
        for (boolean soap12 : new boolean[] {false, true}) {
            String v = soap12 ? "soap12" : "soap11";
            SOAPEnvelope app = envelope(soap12, null);
            RmHeaders.addSequence(app, new RmHeaders.SequenceHeader("urn:uuid:seq-1", 7));
            RmHeaders.addAcknowledgement(app, new InboundSequence.Acknowledgement("urn:uuid:back",
                    List.of(new AckRanges.Range(1, 4), new AckRanges.Range(6, 12)), true));
            RmHeaders.addAckRequested(app, "urn:uuid:seq-1");
            write(dir, "seed-" + v + "-application-message.xml", app);
            write(dir, "seed-" + v + "-create-sequence.xml", envelope(soap12, RmBodies.createSequence("client-uuid-1")));
            write(dir, "seed-" + v + "-create-sequence-response.xml",
                    envelope(soap12, RmBodies.createSequenceResponse("urn:uuid:seq-1", true)));
            write(dir, "seed-" + v + "-close-sequence.xml",
                    envelope(soap12, RmBodies.identified("CloseSequence", "urn:uuid:seq-1", 12)));
            write(dir, "seed-" + v + "-terminate-sequence.xml",
                    envelope(soap12, RmBodies.identified("TerminateSequence", "urn:uuid:seq-1", 12)));
        }
    }

    private static SOAPEnvelope envelope(boolean soap12, OMElement body) {
        SOAPFactory f = soap12 ? OMAbstractFactory.getSOAP12Factory() : OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope env = f.getDefaultEnvelope();
        if (body != null) {
            env.getBody().addChild(body);
        }
        return env;
    }

    private static void write(Path dir, String name, SOAPEnvelope env) throws IOException, XMLStreamException {
        StringWriter w = new StringWriter();
        env.serialize(w);
        Files.write(dir.resolve(name), w.toString().getBytes(StandardCharsets.UTF_8));
    }
}
