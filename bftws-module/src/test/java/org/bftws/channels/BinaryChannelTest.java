package org.bftws.channels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import javax.crypto.SecretKey;
import org.bftws.channels.tcp.ChannelKeys;
import org.bftws.channels.tcp.FrameTransport;
import org.bftws.channels.tcp.TransportSettings;
import org.bftws.core.Checkpoint;
import org.bftws.core.Commit;
import org.bftws.core.Destination;
import org.bftws.core.Digest;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.Prepare;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;
import org.bftws.wire.BinaryCodec;
import org.bftws.wire.KeyedGroup;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.SignatureSource;
import org.bftws.wire.WireLimits;
import org.bftws.wire.WireMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four nodes' binary channels over loopback sockets, with keygen's keys: what the core addresses to a node reaches
 * it, in order, with signatures a third node can check; a message that cannot carry its proof stays behind alone;
 * a frame that does not decode is counted and the stream goes on.
 */
class BinaryChannelTest {
    private static final Digest D = Digest.of("batch".getBytes(StandardCharsets.UTF_8));
    private static final WireLimits LIMITS = WireLimits.of(4, 16, 64);

    @TempDir
    static Path dir;
    static KeyedGroup group;

    private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();
    private final List<BinaryChannel> channels = new ArrayList<>();
    private final List<FrameTransport> transports = new ArrayList<>();
    private final Map<Integer, List<WireMessage>> inboxes = new TreeMap<>();

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
    }

    @AfterEach
    void stop() {
        channels.forEach(BinaryChannel::stop);
        transports.forEach(FrameTransport::stop);
    }

    @Test
    void everyPeerGetsWhatTheCoreAddressedToItInOrderWithSignaturesAThirdNodeCanCheck() throws Exception {
        startChannels(0, 1, 2, 3);
        Prepare prepare = new Prepare(0, 5, D, 0);
        Commit commit = new Commit(0, 5, D, 0);
        Status status = new Status(0, 0, 4, 0);
        channels.get(0).send(new Destination.AllNodes(), prepare);
        channels.get(0).send(new Destination.Node(2), commit);
        channels.get(0).send(new Destination.AllNodes(), status);
        for (int peer = 1; peer <= 3; peer++) {
            List<Message> expected = peer == 2 ? List.of(prepare, commit, status) : List.of(prepare, status);
            List<WireMessage> got = awaitMessages(peer, expected.size());
            assertEquals(expected, got.stream().map(WireMessage::message).toList(), "node " + peer);
            // node 3 checks the prepare node 0 sent to node 1 as it would inside a view-change: by its signature
            group.verifier(new SignatureCache(100)).verifyProofs(got.get(0), 0);
        }
        assertEquals(0, channels.get(0).counters().get("PBFT messages without known signatures"));
    }

    @Test
    void aMessageWhoseEmbeddedProofLostItsSignatureStaysBehindAndTheRestOfTheBatchTravels() throws Exception {
        startChannels(0, 1);
        Digest state = Digest.of("state".getBytes(StandardCharsets.UTF_8));
        // node 0 never held the signatures of nodes 1..3's checkpoints its view-change embeds
        ViewChange vc = new ViewChange(1, 8, state, List.of(new Checkpoint(8, state, 1), new Checkpoint(8, state, 2),
                new Checkpoint(8, state, 3)), List.of(), 0);
        Commit commit = new Commit(0, 9, D, 0);
        channels.get(0).send(new Destination.Node(1), vc);
        channels.get(0).send(new Destination.Node(1), commit);
        assertEquals(List.of(commit), awaitMessages(1, 1).stream().map(WireMessage::message).toList());
        assertEquals(1, channels.get(0).counters().get("PBFT messages without known signatures"));
    }

    @Test
    void aFrameThatDoesNotDecodeIsCountedAndDroppedAndTheNodesNextFramesStillArrive() throws Exception {
        startChannels(0);
        Map<Integer, SecretKey> key = Map.of(0, pairKey(1, 0));
        FrameTransport node1 = new FrameTransport(1, addresses, addresses.get(1),
                "EchoService".getBytes(StandardCharsets.UTF_8), ChannelKeys.of(key), (peer, payload) -> { },
                TransportSettings.defaults(1 << 20, 3));
        node1.start();
        transports.add(node1);
        Commit commit = new Commit(0, 9, D, 1);
        node1.send(0, "not a bundle".getBytes(StandardCharsets.UTF_8));
        node1.send(0, new BinaryCodec(LIMITS).encode(List.of(commit), SignatureSource.none(), false));
        assertEquals(List.of(commit), awaitMessages(0, 1).stream().map(WireMessage::message).toList());
        assertEquals(1, channels.get(0).counters().get("PBFT frames malformed"));
        assertEquals(0, channels.get(0).counters().get("PBFT channel reconnects"), "the connection stayed up");
    }

    // ----- helpers

    /** Starts the binary channels of {@code ids}; every node 0..3 has an address. */
    private void startChannels(int... ids) throws IOException {
        for (int i = 0; i < 4; i++) {
            addresses.put(i, freeAddress());
        }
        for (int id : ids) {
            Map<Integer, SecretKey> keys = new TreeMap<>();
            for (int peer = 0; peer < 4; peer++) {
                if (peer != id) {
                    keys.put(peer, pairKey(id, peer));
                }
            }
            List<WireMessage> inbox = new ArrayList<>();
            inboxes.put(id, inbox);
            BinaryChannel c = new BinaryChannel(id, Membership.configurationI(1), addresses, "EchoService",
                    ChannelKeys.of(keys), new BinaryCodec(LIMITS), group.signer(id), new SignatureCache(1000),
                    (from, messages) -> {
                        synchronized (inbox) {
                            inbox.addAll(messages);
                        }
                    });
            c.start();
            channels.add(c);
        }
    }

    private static SecretKey pairKey(int self, int peer) {
        return group.keys("replica" + self).macKeyWith("replica" + peer).orElseThrow();
    }

    private List<WireMessage> awaitMessages(int node, int n) {
        List<WireMessage> inbox = inboxes.get(node);
        waitUntil(() -> {
            synchronized (inbox) {
                return inbox.size() >= n;
            }
        }, n + " messages at node " + node);
        synchronized (inbox) {
            return List.copyOf(inbox);
        }
    }

    private static InetSocketAddress freeAddress() throws IOException {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), org.bftws.axis2.standalone.NodeServer.freePort());
    }

    private static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
