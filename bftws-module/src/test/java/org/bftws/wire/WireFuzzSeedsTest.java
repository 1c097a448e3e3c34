package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.junit.jupiter.api.Test;

/** The kept seed inputs of the wire fuzz targets are valid, so a short regression run still reaches deep. */
class WireFuzzSeedsTest {
    private static final int KINDS = SampleMessages.everyType().size();

    @Test
    void everyBinarySeedIsAFrameThatDecodesAndOneSeedHoldsEveryMessageKind() throws Exception {
        List<Path> seeds = seeds("BinaryFrameFuzzTestInputs/aFramePayloadDecodesToMessagesThatEncodeBackToItsBytesOrIsRefused");
        assertEquals(KINDS + 1, seeds.size());
        BinaryCodec codec = new BinaryCodec(BundleCodecTest.LIMITS);
        int most = 0;
        for (Path seed : seeds) {
            byte[] bytes = Files.readAllBytes(seed);
            WireBundle back = codec.decode(bytes);
            assertArrayEquals(bytes, back.canonicalBytes(), seed.toString());
            most = Math.max(most, back.messages().size());
        }
        assertEquals(KINDS, most);
    }

    @Test
    void everyXmlSeedIsABundleThatDecodesAndOneSeedHoldsEveryMessageKind() throws Exception {
        List<Path> seeds = seeds("BundleXmlFuzzTestInputs/aBundleDecodesToMessagesBothCodecsWriteAlikeOrIsRefused");
        assertEquals(KINDS + 1, seeds.size());
        BundleCodec codec = new BundleCodec(BundleCodecTest.LIMITS);
        int most = 0;
        for (Path seed : seeds) {
            WireBundle back = codec.decode(OMXMLBuilderFactory
                    .createOMBuilder(new ByteArrayInputStream(Files.readAllBytes(seed))).getDocumentElement());
            most = Math.max(most, back.messages().size());
        }
        assertEquals(KINDS, most);
    }

    private static List<Path> seeds(String dir) throws IOException, URISyntaxException {
        Path path = Path.of(WireFuzzSeedsTest.class.getResource(dir).toURI());
        try (Stream<Path> files = Files.list(path)) {
            return files.filter(p -> p.getFileName().toString().startsWith("seed-")).sorted().toList();
        }
    }
}
