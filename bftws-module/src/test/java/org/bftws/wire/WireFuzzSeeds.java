package org.bftws.wire;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMElement;
import org.bftws.core.Message;

/**
 * Writes the seed inputs of the wire fuzz targets (docs/fuzzing.md) with the project's own encoders, so that the
 * fuzzer starts from valid frames and bundles and reaches deep: one input per message kind and one with every kind.
 * Run once by hand ({@code java -cp ... org.bftws.wire.WireFuzzSeeds bftws-module/src/test/resources}); the kept
 * files are what {@link WireFuzzSeedsTest} checks still decode.
 */
public final class WireFuzzSeeds {
    private WireFuzzSeeds() {
    }

    public static void main(String[] args) throws IOException, XMLStreamException {
        Path resources = Path.of(args[0]);
        Path binary = resources.resolve("org/bftws/wire/BinaryFrameFuzzTestInputs/"
                + "aFramePayloadDecodesToMessagesThatEncodeBackToItsBytesOrIsRefused");
        Path xml = resources.resolve("org/bftws/wire/BundleXmlFuzzTestInputs/"
                + "aBundleDecodesToMessagesBothCodecsWriteAlikeOrIsRefused");
        Files.createDirectories(binary);
        Files.createDirectories(xml);
        List<Message> all = SampleMessages.everyType();
        for (int i = 0; i < all.size(); i++) {
            String name = String.format("seed-%02d-%s", i, MessageKind.of(all.get(i)).element());
            Files.write(binary.resolve(name), binaryFrame(List.of(all.get(i))));
            Files.write(xml.resolve(name + ".xml"), xmlBundle(List.of(all.get(i))));
        }
        Files.write(binary.resolve("seed-every-kind"), binaryFrame(all));
        Files.write(xml.resolve("seed-every-kind.xml"), xmlBundle(all));
    }

    static byte[] binaryFrame(List<Message> messages) {
        return new BinaryCodec(BundleCodecTest.LIMITS).encode(messages, BundleCodecTest.fakeSignatures(), true);
    }

    static byte[] xmlBundle(List<Message> messages) throws XMLStreamException {
        OMElement e = new BundleCodec(BundleCodecTest.LIMITS).encode(messages, BundleCodecTest.fakeSignatures(), true,
                Xml.FACTORY, null);
        StringWriter w = new StringWriter();
        e.serialize(w);
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }
}
