package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target (docs/fuzzing.md): the payload of a binary replica channel frame, as a peer's TCP connection delivers
 * it after the frame MAC. Any bytes either decode, and then encode back to exactly themselves (the frame format is
 * canonical, docs/wire.md), or are refused with a {@link WireFormatException}; anything else thrown is a crash.
 * Without {@code JAZZER_FUZZ} this runs over the kept inputs in {@code BinaryFrameFuzzTestInputs/}.
 */
class BinaryFrameFuzzTest {
    private static final BinaryCodec CODEC = new BinaryCodec(BundleCodecTest.LIMITS);

    @FuzzTest(maxDuration = "10m")
    void aFramePayloadDecodesToMessagesThatEncodeBackToItsBytesOrIsRefused(byte[] payload) {
        WireBundle bundle;
        try {
            bundle = CODEC.decode(payload);
        } catch (WireFormatException refused) {
            return;
        }
        assertArrayEquals(payload, bundle.canonicalBytes());
    }
}
