package org.bftws.channels.tcp;

import org.bftws.axis2.channels.tcp.CuttableProxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The binary channel's transport over real sockets on 127.0.0.1: frames arrive in order and exactly once across
 * broken connections and restarted peers; garbage, wrong keys, replays and bad frames are refused, counted, their
 * connection closed, and no other connection is touched.
 */
class FrameTransportTest {
    private static final byte[] GROUP = "EchoService".getBytes(StandardCharsets.UTF_8);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, SecretKey> pairKeys = new TreeMap<>(Map.of("0-1", key(), "0-2", key(), "1-2", key()));
    private final List<FrameTransport> started = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final Map<Integer, InetSocketAddress> addresses = new TreeMap<>();

    FrameTransportTest() throws IOException {
        for (int i = 0; i < 3; i++) {
            addresses.put(i, freeAddress());
        }
    }

    @AfterEach
    void stopEverything() throws Exception {
        started.forEach(FrameTransport::stop);
        for (AutoCloseable c : closeables) {
            c.close();
        }
    }

    @Test
    void framesArriveInOrderAndExactlyOnceInBothDirectionsOfOneConnection() throws Exception {
        Inbox inA = new Inbox();
        Inbox inB = new Inbox();
        FrameTransport a = start(0, addresses, inA);
        FrameTransport b = start(1, addresses, inB);
        Thread toB = sender(a, 1, "a", 0, 500);
        Thread toA = sender(b, 0, "b", 0, 500);
        assertEquals(numbered("a", 0, 500), inB.await(0, 500));
        assertEquals(numbered("b", 0, 500), inA.await(1, 500));
        toB.join();
        toA.join();
        assertEquals(1L, a.counters().snapshot().get("connections"));
        assertEquals(1L, b.counters().snapshot().get("connections"));
        assertTrue(a.counters().snapshot().keySet().stream().noneMatch(k -> k.startsWith("refused")));
    }

    @Test
    void framesWrittenIntoAConnectionThatBreaksAreSentAgainOnTheNextOneInOrderAndOnlyOnce() throws Exception {
        CuttableProxy proxy = proxyTo(addresses.get(1));
        Inbox inB = new Inbox();
        FrameTransport a = start(0, via(1, proxy), new Inbox());
        FrameTransport b = start(1, addresses, inB);
        sender(a, 1, "m", 0, 50).join();
        inB.await(0, 50);
        proxy.swallow(true); // the next 50 frames leave node 0 and never arrive
        sender(a, 1, "m", 50, 100).join();
        waitUntil(() -> a.counters().framesSent() >= 100, "node 0 wrote all 100 frames");
        proxy.cut();
        proxy.swallow(false);
        assertEquals(numbered("m", 0, 100), inB.await(0, 100));
        assertTrue(a.counters().framesRetransmitted() >= 50, a.counters().snapshot().toString());
        assertEquals(100, b.counters().framesReceived());
        assertTrue(a.counters().reconnects() >= 1);
    }

    @Test
    void manyConnectionResetsDuringTwoLongStreamsLoseNothingAndRepeatNothing() throws Exception {
        CuttableProxy proxy = proxyTo(addresses.get(1));
        Inbox inA = new Inbox();
        Inbox inB = new Inbox();
        FrameTransport a = start(0, via(1, proxy), inA);
        FrameTransport b = start(1, addresses, inB);
        Thread toB = sender(a, 1, "a", 0, 3000);
        Thread toA = sender(b, 0, "b", 0, 3000);
        Thread cutter = new Thread(() -> {
            for (int i = 0; i < 15; i++) {
                sleep(40);
                proxy.cut();
            }
        });
        cutter.start();
        assertEquals(numbered("a", 0, 3000), inB.await(0, 3000));
        assertEquals(numbered("b", 0, 3000), inA.await(1, 3000));
        cutter.join();
        toB.join();
        toA.join();
        assertTrue(proxy.connections() > 1, "the connection was cut and opened again");
        assertEquals(3000, b.counters().framesReceived());
        assertEquals(3000, a.counters().framesReceived());
    }

    @Test
    void aRestartedPeerIsConnectedAgainAndGetsWhatWasSentWhileItWasDownButNothingMeantForItsPreviousRun()
            throws Exception {
        Inbox inA = new Inbox();
        FrameTransport a = start(0, addresses, inA);
        FrameTransport b = start(1, addresses, new Inbox());
        sender(a, 1, "old", 0, 10).join();
        sender(b, 0, "b", 0, 10).join();
        inA.await(1, 10);
        long lost = a.counters().connectionsLost.get();
        b.stop();
        // Sent once node 0 knows the connection is gone: a frame written before that goes onto the old connection
        // and belongs to the stopped run (dropped when the new run's handshake comes, as designed).
        waitUntil(() -> a.counters().connectionsLost.get() > lost, "node 0 noticed that node 1 stopped");
        // and node 1 is gone: a dial after the loss failed (not answered by the stopping run's listener)
        long failures = a.counters().dialFailures.get();
        waitUntil(() -> a.counters().dialFailures.get() > failures, "node 0 failed to reach the stopped node 1");
        a.send(1, bytes("while down"));
        Inbox inB2 = new Inbox();
        FrameTransport b2 = start(1, addresses, inB2);
        assertEquals(List.of("while down"), inB2.await(0, 1));
        b2.send(0, bytes("from the new run"));
        assertEquals(List.of("from the new run"), inA.await(1, 11).subList(10, 11));
        assertTrue(a.counters().reconnects() >= 1);

        // and the other way round: the dialling node restarts
        long lostByB = b2.counters().connectionsLost.get();
        a.stop();
        waitUntil(() -> b2.counters().connectionsLost.get() > lostByB, "node 1 noticed that node 0 stopped");
        Inbox inA2 = new Inbox();
        FrameTransport a2 = start(0, addresses, inA2);
        a2.send(1, bytes("x"));
        b2.send(0, bytes("y"));
        assertEquals(List.of("while down", "x"), inB2.await(0, 2));
        assertEquals(List.of("y"), inA2.await(1, 1));
        sleep(200);
        assertEquals(List.of("while down", "x"), inB2.from(0), "nothing arrives twice");
    }

    @Test
    void aSenderToAPeerThatIsDownWaitsWithOnePayloadAndBothArriveWhenThePeerComes() throws Exception {
        FrameTransport a = start(0, addresses, new Inbox());
        Thread t = sender(a, 1, "p", 0, 2);
        waitUntil(() -> t.getState() == Thread.State.WAITING, "the second send waits");
        Inbox inB = new Inbox();
        start(1, addresses, inB);
        assertEquals(numbered("p", 0, 2), inB.await(0, 2));
        t.join(10_000);
        assertEquals(Thread.State.TERMINATED, t.getState());
    }

    @Test
    void garbageOnTheChannelPortIsRefusedCountedAndClosedWhileTheGoodConnectionGoesOn() throws Exception {
        Inbox inB = new Inbox();
        FrameTransport a = start(0, addresses, new Inbox());
        FrameTransport b = start(1, addresses, inB);
        a.send(1, bytes("before"));
        inB.await(0, 1);
        byte[] garbage = new byte[64];
        new Random(7).nextBytes(garbage);
        try (Socket s = connect(addresses.get(1))) {
            s.getOutputStream().write(garbage);
            assertClosedByPeer(s);
        }
        waitUntil(() -> b.counters().refusals(Refusal.MALFORMED_HANDSHAKE) == 1, "the garbage was counted");
        a.send(1, bytes("after"));
        assertEquals(List.of("before", "after"), inB.await(0, 2));
        assertEquals(0, a.counters().reconnects());
        assertEquals(0, b.counters().reconnects());
    }

    @Test
    void aDiallerThatDoesNotKnowThePairKeyIsRefusedAndCounted() throws Exception {
        FrameTransport b = start(1, addresses, new Inbox());
        try (Socket s = connect(addresses.get(1))) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            out.write(ByteBuffer.allocate(Handshake.HELLO_BYTES).put(Handshake.MAGIC).put((byte) 1).putInt(0).putInt(1)
                    .putLong(42).put(new byte[Handshake.NONCE_BYTES]).array());
            in.readFully(new byte[Handshake.WELCOME_BYTES + FrameMac.LENGTH]);
            byte[] confirm = new byte[8 + FrameMac.LENGTH];
            RANDOM.nextBytes(confirm);
            out.write(confirm); // no proof can be made without the key
            assertClosedByPeer(s);
        }
        waitUntil(() -> b.counters().refusals(Refusal.WRONG_KEY) == 1, "the wrong proof was counted");
    }

    @Test
    void anAcceptorThatDoesNotKnowThePairKeyIsRefusedByTheDialler() throws Exception {
        ServerSocket impostor = new ServerSocket();
        impostor.bind(addresses.get(1));
        closeables.add(impostor);
        Thread answer = new Thread(() -> {
            try (Socket s = impostor.accept()) {
                FramedConnection.Streams streams = FramedConnection.Streams.of(s);
                Handshake.accept(streams.in(), streams.out(), local(1, ChannelKeys.of(Map.of(0, key()))));
            } catch (IOException | ChannelRefusal expected) {
                // the dialler hangs up after the wrong proof
            }
        });
        answer.setDaemon(true);
        answer.start();
        FrameTransport a = start(0, addresses, new Inbox());
        waitUntil(() -> a.counters().refusals(Refusal.WRONG_KEY) >= 1, "node 0 refused the impostor's proof");
    }

    @Test
    void aConnectionRecordedAndReplayedToTheNodeIsRefusedAndDeliversNothing() throws Exception {
        CuttableProxy proxy = proxyTo(addresses.get(1));
        Inbox inB = new Inbox();
        FrameTransport a = start(0, via(1, proxy), new Inbox());
        FrameTransport b = start(1, addresses, inB);
        sender(a, 1, "r", 0, 5).join();
        inB.await(0, 5);
        sleep(100);
        try (Socket s = connect(addresses.get(1))) {
            s.getOutputStream().write(proxy.firstConnectionBytes());
            assertClosedByPeer(s);
        }
        waitUntil(() -> b.counters().refusals(Refusal.WRONG_KEY) == 1, "the replayed handshake's proof failed");
        assertEquals(numbered("r", 0, 5), inB.from(0));
        assertEquals(0, b.counters().reconnects(), "the real connection was not replaced");
    }

    @Test
    void framesUnderTheWrongKeyOutOfOrderOversizedOrAcknowledgingTooMuchDropThatConnectionOnly() throws Exception {
        Inbox inB = new Inbox();
        Inbox inC = new Inbox();
        FrameTransport b = start(1, addresses, inB);
        FrameTransport c = start(2, addresses, inC);
        b.send(2, bytes("b1"));
        inC.await(1, 1);
        int max = b.settings().maxFrameBytes();

        rogue(b, (streams, session) -> streams.framed(FrameMac.keyed(new byte[32]), session.in(), max)
                .writeData(1, 0, bytes("forged"), true));
        waitUntil(() -> b.counters().refusals(Refusal.MAC_MISMATCH) == 1, "a frame under the wrong key");

        rogue(b, (streams, session) -> streams.framed(session, max).writeData(2, 0, bytes("skips 1"), true));
        waitUntil(() -> b.counters().refusals(Refusal.OUT_OF_ORDER) == 1, "a frame out of order");

        rogue(b, (streams, session) -> {
            streams.out().write(FramedConnection.header(FramedConnection.DATA, Integer.MAX_VALUE, 1, 0));
            streams.out().flush();
        });
        waitUntil(() -> b.counters().refusals(Refusal.OVERSIZED_FRAME) == 1, "an oversized length");

        rogue(b, (streams, session) -> streams.framed(session, max).writeAck(5));
        waitUntil(() -> b.counters().refusals(Refusal.BAD_ACK) == 1, "an acknowledgement of frames never sent");

        rogue(b, (streams, session) -> {
            streams.out().write(FramedConnection.header(7, 0, 0, 0)); // a header no peer writes
            streams.out().flush();
        });
        waitUntil(() -> b.counters().refusals(Refusal.MALFORMED_FRAME) == 1, "garbage after the handshake");

        assertTrue(inB.from(0).isEmpty(), "nothing from the rogue was delivered");
        b.send(2, bytes("b2"));
        c.send(1, bytes("c1"));
        assertEquals(List.of("b1", "b2"), inC.await(1, 2));
        assertEquals(List.of("c1"), inB.await(2, 1));
        assertEquals(0, c.counters().reconnects(), "the link between nodes 1 and 2 was never touched");

        // the real node 0 then connects as if nothing had happened
        FrameTransport a = start(0, addresses, new Inbox());
        a.send(1, bytes("a1"));
        assertEquals(List.of("a1"), inB.await(0, 1));
    }

    @Test
    void withoutKeysFramesTravelUnauthenticatedAndStillInOrder() throws Exception {
        Inbox inB = new Inbox();
        FrameTransport a = start(0, addresses, new Inbox(), ChannelKeys.none());
        start(1, addresses, inB, ChannelKeys.none());
        sender(a, 1, "n", 0, 100).join();
        assertEquals(numbered("n", 0, 100), inB.await(0, 100));
    }

    // ----- helpers

    /** A peer that claims to be node 0 with node 0's key, does {@code act} after the handshake and is cut off. */
    private void rogue(FrameTransport target, RogueAct act) throws Exception {
        try (Socket s = connect(addresses.get(1))) {
            FramedConnection.Streams streams = FramedConnection.Streams.of(s);
            Handshake.Session session = Handshake.dial(streams.in(), streams.out(), 1, local(0, keysOf(0)));
            act.run(streams, session);
            assertClosedByPeer(s);
        }
    }

    @FunctionalInterface
    private interface RogueAct {
        void run(FramedConnection.Streams streams, Handshake.Session session) throws IOException;
    }

    private static Handshake.Local local(int self, ChannelKeys keys) {
        long incarnation = Handshake.newIncarnation();
        return new Handshake.Local() {
            @Override
            public int self() {
                return self;
            }

            @Override
            public long incarnation() {
                return incarnation;
            }

            @Override
            public byte[] context() {
                return GROUP;
            }

            @Override
            public ChannelKeys keys() {
                return keys;
            }

            @Override
            public boolean dialsHere(int id) {
                return id < self;
            }

            @Override
            public long deliveredFrom(int peer, long peerIncarnation) {
                return 0;
            }
        };
    }

    private FrameTransport start(int id, Map<Integer, InetSocketAddress> peers, Inbox inbox) throws IOException {
        return start(id, peers, inbox, keysOf(id));
    }

    private FrameTransport start(int id, Map<Integer, InetSocketAddress> peers, Inbox inbox, ChannelKeys keys)
            throws IOException {
        FrameTransport t = new FrameTransport(id, peers, addresses.get(id), GROUP, keys, inbox,
                TransportSettings.defaults(1 << 20, 2));
        t.start();
        started.add(t);
        return t;
    }

    private ChannelKeys keysOf(int id) {
        Map<Integer, SecretKey> keys = new TreeMap<>();
        for (int peer = 0; peer < 3; peer++) {
            if (peer != id) {
                keys.put(peer, pairKeys.get(Math.min(id, peer) + "-" + Math.max(id, peer)));
            }
        }
        return ChannelKeys.of(keys);
    }

    private Map<Integer, InetSocketAddress> via(int node, CuttableProxy proxy) {
        Map<Integer, InetSocketAddress> m = new TreeMap<>(addresses);
        m.put(node, proxy.address());
        return m;
    }

    private CuttableProxy proxyTo(InetSocketAddress target) throws IOException {
        CuttableProxy p = new CuttableProxy(target);
        closeables.add(p);
        return p;
    }

    private static Thread sender(FrameTransport t, int peer, String prefix, int from, int to) {
        Thread thread = new Thread(() -> {
            try {
                for (int i = from; i < to; i++) {
                    t.send(peer, bytes(prefix + i));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static List<String> numbered(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static SecretKey key() {
        byte[] k = new byte[32];
        RANDOM.nextBytes(k);
        return new SecretKeySpec(k, "HmacSHA256");
    }

    private static InetSocketAddress freeAddress() throws IOException {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), org.bftws.axis2.standalone.NodeServer.freePort());
    }

    private static Socket connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket(address.getAddress(), address.getPort());
        s.setSoTimeout(20_000);
        return s;
    }

    /** The node closes the connection: reading ends (or is reset) within the timeout. */
    private static void assertClosedByPeer(Socket s) {
        try {
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // whatever the node wrote before it closed
            }
        } catch (java.net.SocketTimeoutException e) {
            throw new AssertionError("the node did not close the connection", e);
        } catch (IOException reset) {
            // closed with a reset: closed all the same
        }
    }

    private static void waitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            sleep(10);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a node received, per sending peer, in order. */
    private static final class Inbox implements FrameReceiver {
        private final Map<Integer, List<String>> received = new ConcurrentHashMap<>();

        @Override
        public void frame(int peer, byte[] payload) {
            received.computeIfAbsent(peer, p -> Collections.synchronizedList(new ArrayList<>()))
                    .add(new String(payload, StandardCharsets.UTF_8));
        }

        List<String> from(int peer) {
            List<String> l = received.getOrDefault(peer, List.of());
            synchronized (l) {
                return List.copyOf(l);
            }
        }

        /** The first {@code n} payloads from {@code peer}, once that many arrived (30 s at most). */
        List<String> await(int peer, int n) {
            waitUntil(() -> from(peer).size() >= n, n + " frames from node " + peer);
            return from(peer).subList(0, n);
        }
    }
}
