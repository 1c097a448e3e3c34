package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.bftws.core.Batch;
import org.bftws.core.Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A binary frame payload that is malformed, oversized or inconsistent is refused with a WireFormatException naming
 * the part, the byte and the problem; random corruption of a valid frame never makes the decoder fail otherwise, and
 * no length the sender wrote is trusted before it is checked.
 */
class MalformedBinaryTest {
    private static final Digest D = SampleMessages.STATE_128;
    private static final Digest NULL_BATCH = Batch.NULL.digest();
    private final BinaryCodec codec = new BinaryCodec(BundleCodecTest.LIMITS);

    /** A frame header claiming {@code count} messages, then what {@code body} writes. */
    private static byte[] frame(int count, Consumer<CanonicalWriter> body) {
        CanonicalWriter w = new CanonicalWriter();
        w.writeByte(0x42).writeInt(CanonicalForm.VERSION).writeInt(count);
        body.accept(w);
        return w.toByteArray();
    }

    private static void prepare(CanonicalWriter w, int view, long seq, Digest d, int from) {
        w.writeByte(2).writeInt(view).writeLong(seq).writeDigest(d).writeInt(from);
    }

    /** A top-level prepare: the message and its signature table (absent). */
    private static Consumer<CanonicalWriter> prepare(int view, long seq, int from) {
        return w -> {
            prepare(w, view, seq, D, from);
            w.writeBoolean(false);
        };
    }

    private static void checkpoint(CanonicalWriter w, long seq, Digest d, int from) {
        w.writeByte(4).writeLong(seq).writeDigest(d).writeInt(from);
    }

    /** A null-batch pre-prepare of node 0 in view 0 at {@code seq}. */
    private static void nullPrePrepare(CanonicalWriter w, int view, long seq, int from) {
        w.writeByte(1).writeInt(view).writeLong(seq).writeLong(0).writeInt(0).writeInt(from);
    }

    /** A PrePrepare whose batch has {@code refs} references written by {@code ref}. */
    private static Consumer<CanonicalWriter> prePrepare(int refs, Consumer<CanonicalWriter> ref) {
        return w -> {
            w.writeByte(1).writeInt(0).writeLong(1).writeLong(0).writeInt(refs);
            for (int i = 0; i < refs; i++) {
                ref.accept(w);
            }
            w.writeInt(0).writeBoolean(false);
        };
    }

    private static Consumer<CanonicalWriter> ref(byte[] client, long number) {
        return w -> w.writeInt(client.length).writeRaw(client).writeLong(number).writeDigest(D);
    }

    private static Consumer<CanonicalWriter> forwarded(int count, Consumer<CanonicalWriter> request) {
        return w -> {
            w.writeByte(8).writeInt(count);
            request.accept(w);
            w.writeInt(1);
        };
    }

    /** A view-change to view 1 of node 1, stable checkpoint 0 at D, with the given proof and certificates. */
    private static Consumer<CanonicalWriter> viewChange(Consumer<CanonicalWriter> proofAndCertificates,
                                                        Consumer<CanonicalWriter> signatures) {
        return w -> {
            w.writeByte(5).writeInt(1).writeLong(0).writeDigest(D);
            proofAndCertificates.accept(w);
            w.writeInt(1);
            signatures.accept(w);
        };
    }

    private static Consumer<CanonicalWriter> absent(int parts) {
        return w -> {
            for (int i = 0; i < parts; i++) {
                w.writeBoolean(false);
            }
        };
    }

    private static Consumer<CanonicalWriter> status(int view, int changing, int target, int... holders) {
        return w -> {
            w.writeByte(11).writeInt(view).writeByte(changing).writeLong(0).writeLong(0).writeInt(target)
                    .writeInt(holders.length);
            for (int h : holders) {
                w.writeInt(h);
            }
            w.writeInt(2);
        };
    }

    static Stream<Arguments> malformed() {
        byte[] c = "c".getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                Arguments.of("another bundle tag", new byte[] {0x43, 0, 0, 0, 1, 0, 0, 0, 1}, "frame: opens with 67, not the bundle tag 66"),
                Arguments.of("another version", new byte[] {0x42, 0, 0, 0, 1, 0, 0, 0, 1}, "frame: version 1, this node reads 2"),
                Arguments.of("no messages", frame(0, w -> { }), "frame: the message count is 0 at byte 5, outside 1..1024"),
                Arguments.of("more messages than allowed", frame(1025, w -> { }), "the message count is 1025 at byte 5, outside 1..1024"),
                Arguments.of("a truncated header", new byte[] {0x42, 0, 0}, "frame: ends at byte 3 inside the version"),
                Arguments.of("an unknown message kind", frame(1, w -> w.writeByte(99)),
                        "frame/message[1]: tag 99 at byte 9 is no PBFT message kind"),
                Arguments.of("a truncated prepare", Arrays.copyOf(frame(1, prepare(1, 5, 2)), 30),
                        "frame/Prepare[1]: ends at byte 30 inside digest"),
                Arguments.of("fewer messages than counted", frame(2, prepare(1, 5, 2)),
                        "frame/message[2]: ends at byte"),
                Arguments.of("bytes after the last message", frame(1, prepare(1, 5, 2).andThen(w -> w.writeByte(0))),
                        "frame: 1 bytes after the last message"),
                Arguments.of("a negative view", frame(1, prepare(-1, 5, 2)), "frame/Prepare[1]: view is -1 at byte 10, outside 0..2147483647"),
                Arguments.of("a negative sequence number", frame(1, prepare(1, -5, 2)), "seq is -5 at byte 14, outside 0.."),
                Arguments.of("a sender outside the group", frame(1, prepare(1, 5, 4)), "frame/Prepare[1]: sender is 4 at byte 54, outside 0..3"),
                Arguments.of("a presence byte that is no boolean", frame(1, w -> {
                            prepare(w, 1, 5, D, 2);
                            w.writeByte(2);
                        }), "frame/Prepare[1]/signature[1]: presence is 2 at byte 58, a boolean is 0 or 1"),
                Arguments.of("a boolean that is neither 0 nor 1", frame(1, status(1, 7, 2)), "frame/Status[1]: viewChanging is 7"),
                Arguments.of("a batch above batchMaxSize", frame(1, prePrepare(65, ref(c, 1))),
                        "frame/PrePrepare[1]: more than 64 request references (65)"),
                Arguments.of("a negative count", frame(1, prePrepare(-1, ref(c, 1))),
                        "frame/PrePrepare[1]: more than 64 request references (4294967295)"),
                Arguments.of("request number zero", frame(1, prePrepare(1, ref(c, 0))),
                        "frame/PrePrepare[1]/Ref[1]: number is 0 at byte"),
                Arguments.of("an empty client id", frame(1, prePrepare(1, ref(new byte[0], 1))),
                        "frame/PrePrepare[1]/Ref[1]: client at byte 34 has 0 characters, not 1..256"),
                Arguments.of("an overlong client id", frame(1, prePrepare(1, ref("c".repeat(257).getBytes(StandardCharsets.UTF_8), 1))),
                        "client at byte 34 has 257 characters, not 1..256"),
                Arguments.of("a client id that is not UTF-8", frame(1, prePrepare(1, ref(new byte[] {(byte) 0xc3, 0x28}, 1))),
                        "frame/PrePrepare[1]/Ref[1]: client at byte 34 is not well-formed UTF-8"),
                Arguments.of("a length beyond the bytes left", frame(1, forwarded(1, w -> w.writeInt(1).writeRaw(c).writeLong(1)
                                .writeInt(1_000_000).writeRaw(new byte[10]))),
                        "frame/ForwardedRequests[1]/Request[1]: payload at byte 27 claims 1000000 bytes, only 14 follow"),
                Arguments.of("a length beyond its bound", frame(1, forwarded(1, w -> w.writeInt(1).writeRaw(c).writeLong(1)
                                .writeInt(Integer.MAX_VALUE))),
                        "payload at byte 27 has 2147483647 bytes, more than 1048576"),
                Arguments.of("an embedded message of another kind", frame(1, viewChange(w -> {
                            w.writeInt(1);
                            prepare(w, 0, 0, D, 0);
                        }, absent(2))),
                        "frame/ViewChange[1]/Checkpoint[1]: tag 2 at byte 58, expected 4 (Checkpoint)"),
                Arguments.of("a proof checkpoint for another state", frame(1, viewChange(w -> {
                            w.writeInt(1);
                            checkpoint(w, 0, NULL_BATCH, 0);
                            w.writeInt(0);
                        }, absent(2))),
                        "frame/ViewChange[1]: inconsistent: proof Checkpoint(n0"),
                Arguments.of("a prepare for another slot in a certificate", frame(1, viewChange(w -> {
                            w.writeInt(0).writeInt(1);
                            nullPrePrepare(w, 0, 3, 0);
                            w.writeInt(1);
                            prepare(w, 0, 4, NULL_BATCH, 1);
                        }, absent(3))),
                        "frame/ViewChange[1]/certificate[1]/Prepare[1]: inconsistent: the prepare names view 0, seq 4"),
                Arguments.of("more certificates than the window", frame(1, viewChange(w -> w.writeInt(0).writeInt(257), absent(1))),
                        "frame/ViewChange[1]: more than 256 certificates (257)"),
                Arguments.of("a re-proposal by another node", frame(1, w -> {
                            w.writeByte(6).writeInt(2).writeInt(0).writeInt(1);
                            nullPrePrepare(w, 2, 129, 1);
                            w.writeInt(2);
                            absent(2).accept(w);
                        }), "frame/NewView[1]/PrePrepare[1]: inconsistent: a re-proposal must be node 2's in view 2"),
                Arguments.of("a committed batch whose references are not its requests'", frame(1, w -> {
                            w.writeByte(13).writeInt(0).writeLong(7).writeLong(0).writeInt(1);
                            ref(c, 1).accept(w);
                            w.writeInt(1).writeInt(1).writeRaw(c).writeLong(1).writeInt(2).writeRaw(new byte[] {1, 2});
                            w.writeInt(0);
                        }), "frame/CommittedBatch[1]: inconsistent: the batch is not its requests' references in order"),
                Arguments.of("view-change holders out of order", frame(1, status(1, 1, 2, 2, 0)),
                        "frame/Status[1]: view-change holders are not distinct and ascending (0 after 2)"),
                Arguments.of("a view-change holder outside the group", frame(1, status(1, 1, 2, 4)),
                        "frame/Status[1]: view-change holder 1 is 4"),
                Arguments.of("a target view without a view change", frame(1, status(1, 0, 2)),
                        "frame/Status[1]: targetView 2 with view 1 without changing views"),
                Arguments.of("two different signatures for one value", frame(1, viewChange(w -> {
                            w.writeInt(2);
                            checkpoint(w, 0, D, 0);
                            checkpoint(w, 0, D, 0);
                            w.writeInt(0);
                        }, w -> w.writeBoolean(false).writeBoolean(true).writeBytes(new byte[] {1})
                                .writeBoolean(true).writeBytes(new byte[] {2}))),
                        "frame/ViewChange[1]/signature[3]: inconsistent: two different signatures for the same Checkpoint(n0"),
                Arguments.of("a signature beyond its bound", frame(1, w -> {
                            prepare(w, 1, 5, D, 2);
                            w.writeBoolean(true).writeBytes(new byte[65]);
                        }), "frame/Prepare[1]/signature[1]: signature at byte 59 has 65 bytes, more than 64"),
                Arguments.of("an empty signature", frame(1, w -> {
                            prepare(w, 1, 5, D, 2);
                            w.writeBoolean(true).writeInt(0);
                        }), "frame/Prepare[1]/signature[1]: an empty signature"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void isRefusedWithTheProblemAndWhereItIs(String what, byte[] payload, String expected) {
        WireFormatException e = assertThrows(WireFormatException.class, () -> codec.decode(payload), what);
        assertTrue(e.getMessage().contains(expected), what + ": " + e.getMessage());
    }

    @Test
    void payloadsAndStatesBeyondTheFramesBudgetAreRefusedEvenWhenEachIsWithinItsOwnBound() {
        WireLimits small = new WireLimits(4, 1024, 64, 128, 256, 256, 1000, 1000, 1024, 1500);
        byte[] payload = new BinaryCodec(small).encode(List.of(new org.bftws.core.ForwardedRequests(
                List.of(SampleMessages.request(1, 1, 800), SampleMessages.request(2, 1, 800)), 1)),
                SignatureSource.none(), false);
        WireFormatException e = assertThrows(WireFormatException.class, () -> new BinaryCodec(small).decode(payload));
        assertTrue(e.getMessage().contains("frame/ForwardedRequests[1]/Request[2]: the frame's payloads, results and"
                + " states exceed 1500 bytes"), e.getMessage());
    }

    /**
     * A seeded fuzz: 5,000 corruptions (bytes changed, inserted, removed; the frame cut short) of a frame with a
     * message of every kind and their signatures. Every result decodes cleanly or is refused with a
     * WireFormatException; nothing else is thrown.
     */
    @Test
    void randomCorruptionOfAValidFrameIsEitherDecodedOrRefusedNeverAnotherFailure() {
        byte[] valid = codec.encode(SampleMessages.everyType(), BundleCodecTest.fakeSignatures(), true);
        Random random = new Random(20240605L);
        int refused = 0;
        int decoded = 0;
        for (int i = 0; i < 5000; i++) {
            byte[] b = corrupt(valid, random);
            try {
                codec.decode(b);
                decoded++;
            } catch (WireFormatException expected) {
                refused++;
            } catch (RuntimeException | OutOfMemoryError e) {
                fail("corruption " + i + " made the decoder fail with " + e, e);
            }
        }
        assertTrue(refused > 2500, "most corruptions must be refused, were " + refused + " (decoded " + decoded + ")");
    }

    private static byte[] corrupt(byte[] valid, Random random) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(valid);
        byte[] b = out.toByteArray();
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(4)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b[at] ^= (byte) (1 << random.nextInt(8));
                case 2 -> {
                    byte[] shorter = new byte[b.length - 1];
                    System.arraycopy(b, 0, shorter, 0, at);
                    System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
                    b = shorter;
                }
                default -> {
                    byte[] longer = new byte[b.length + 1];
                    System.arraycopy(b, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(b, at, longer, at + 1, b.length - at);
                    b = longer;
                }
            }
        }
        if (random.nextInt(10) == 0) {
            b = Arrays.copyOf(b, random.nextInt(b.length));
        }
        return b;
    }
}
