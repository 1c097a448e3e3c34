package org.bftws.channels;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.channels.tcp.ChannelKeys;
import org.bftws.channels.tcp.FrameTransport;
import org.bftws.channels.tcp.TransportSettings;
import org.bftws.core.Destination;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.wire.BinaryCodec;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.SignatureSource;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireFormatException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The binary replica channel ({@code replicaChannel="binary"}, the default): PBFT messages to the other nodes of the
 * group as compact frames ({@link BinaryCodec}: canonical forms and signature tables) over one persistent TCP
 * connection per pair of nodes ({@link FrameTransport}: authenticated handshake, HMAC'd frames, in order, exactly
 * once, retransmitted across broken connections). No Axis2 on either side.
 *
 * <p>Sending as the SOAP channel does: one queue ({@link PeerQueue}, bounded, each message once) and one sender thread
 * per peer; the thread takes everything queued, signs this node's transferable parts once, leaves out a message whose
 * embedded proof lost its signature (counted) rather than the whole batch, and hands the rest to the transport as
 * frames of up to about 1 MiB. The transport takes the next frame only when the previous one is on its way, so while
 * one is written the next messages gather. A peer that is down costs its queue and one waiting frame (plus the
 * frames written and not yet acknowledged, bounded by the transport's window).
 *
 * <p>Receiving: the transport hands each frame's payload over in order on the connection's reader thread; it is
 * decoded and given, with the authenticated peer's id, to the {@link ChannelInbound} in one hand-over. A payload that
 * does not decode (a faulty peer: a correct one never sends one) is counted and logged, and the stream goes on.
 */
public final class BinaryChannel implements ReplicaChannel {
    private static final Logger LOG = LoggerFactory.getLogger(BinaryChannel.class);
    /** Messages kept for one peer that does not answer; older ones are dropped beyond this. */
    private static final int QUEUE_LIMIT = 10_000;
    /** A frame is closed once its messages reach this size; a single larger message gets a frame of its own. */
    static final int FRAME_TARGET_BYTES = 1 << 20;

    private final Membership membership;
    private final BinaryCodec codec;
    private final MessageSigner signer;
    private final SignatureCache cache;
    private final ChannelInbound inbound;
    private final FrameTransport transport;
    private final int maxFrameBytes;
    private final Map<Integer, Peer> peers = new TreeMap<>();
    private final AtomicLong messagesSent = new AtomicLong();
    private final AtomicLong unsignable = new AtomicLong();
    private final AtomicLong tooLarge = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();
    private final SettledMessages settled = new SettledMessages();

    /**
     * @param addresses every node's channel address by core id (this node's is where it listens)
     * @param group     the group's service name: bound into every handshake and frame key
     * @param keys      the pair keys, or {@link ChannelKeys#none()} (profile none)
     * @param signer    signs this node's transferable messages; null without keys
     */
    public BinaryChannel(int self, Membership membership, Map<Integer, InetSocketAddress> addresses, String group,
                         ChannelKeys keys, BinaryCodec codec, MessageSigner signer, SignatureCache cache,
                         ChannelInbound inbound) {
        this(self, membership, addresses, group, keys, null, codec, signer, cache, inbound);
    }

    /** As above, over TLS when {@code tls} is not null (replicas.xml's {@code <tls>}). */
    public BinaryChannel(int self, Membership membership, Map<Integer, InetSocketAddress> addresses, String group,
                         ChannelKeys keys, org.bftws.channels.tcp.ChannelTls tls, BinaryCodec codec,
                         MessageSigner signer, SignatureCache cache, ChannelInbound inbound) {
        this.membership = membership;
        this.codec = codec;
        this.signer = signer;
        this.cache = cache;
        this.inbound = inbound;
        // the largest frame a correct node sends: the decoded-bytes budget of a bundle and room for its structure
        this.maxFrameBytes = (int) Math.min(Integer.MAX_VALUE - 64L, codec.limits().maxBundleBytes() + (1 << 20));
        this.transport = new FrameTransport(self, addresses, addresses.get(self),
                group.getBytes(StandardCharsets.UTF_8), keys, tls, this::received,
                TransportSettings.defaults(maxFrameBytes, addresses.size() - 1));
        addresses.keySet().forEach(id -> {
            if (id != self) {
                peers.put(id, new Peer(id));
            }
        });
    }

    @Override
    public void start() {
        try {
            transport.start();
        } catch (IOException e) {
            throw new UncheckedIOException("the binary replica channel cannot listen on its channelEndpoint: "
                    + e.getMessage(), e);
        }
        peers.values().forEach(Peer::start);
    }

    @Override
    public void stop() {
        peers.values().forEach(Peer::stop);
        transport.stop();
    }

    @Override
    public void send(Destination to, Message m) {
        peers.forEach((id, peer) -> {
            if (PeerRouting.wants(to, id, membership)) {
                peer.offer(m);
            }
        });
    }

    @Override
    public void stableCheckpointIs(long seq) {
        settled.stableCheckpointIs(seq);
    }

    /** The transport's counters and this channel's, each named "PBFT ...". */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>();
        transport.counters().snapshot().forEach((name, n) -> m.put("PBFT channel " + name, n));
        m.put("PBFT messages sent", messagesSent.get());
        m.put("PBFT duplicates not queued", peers.values().stream().mapToLong(p -> p.queue.duplicates()).sum());
        m.put("PBFT messages without known signatures", unsignable.get());
        m.put("PBFT messages too large for a frame", tooLarge.get());
        m.put("PBFT frames malformed", malformed.get());
        m.put("PBFT messages left out as settled", settled.skipped());
        return m;
    }

    /** The transport, for its counters and port. */
    public FrameTransport transport() {
        return transport;
    }

    private void received(int peer, byte[] payload) {
        WireBundle bundle;
        try {
            bundle = codec.decode(payload);
        } catch (WireFormatException e) {
            long n = malformed.incrementAndGet();
            if (Long.bitCount(n) == 1) {
                LOG.warn("binary channel: a frame from node {} does not decode, dropped: {} [{} so far]", peer,
                        e.getMessage(), n);
            }
            return;
        }
        inbound.receive(peer, bundle.messages());
    }

    /** One peer: its queue and its sender thread. */
    private final class Peer extends PeerSender {

        Peer(int id) {
            super(id, QUEUE_LIMIT, cache, settled);
        }

        @Override
        public void run() {
            while (running) {
                try {
                    List<Message> batch = nextBatch(codec.limits().maxMessages(), 1_000);
                    if (!batch.isEmpty()) {
                        send(batch);
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.warn("binary channel: PBFT messages to node {} lost", id, e);
                }
            }
        }

        private void send(List<Message> batch) throws InterruptedException {
            if (signer != null) {
                for (Message m : batch) {
                    signer.signOwnParts(m, cache);
                }
            }
            SignatureSource signatures = pins.signaturesFor(batch);
            List<byte[]> entries = new ArrayList<>(batch.size());
            long bytes = BinaryCodec.HEADER_BYTES;
            for (Message m : batch) {
                byte[] entry = entry(m, signatures);
                if (entry == null) {
                    continue;
                }
                if (!entries.isEmpty() && bytes + entry.length > FRAME_TARGET_BYTES) {
                    frame(entries);
                    entries.clear();
                    bytes = BinaryCodec.HEADER_BYTES;
                }
                entries.add(entry);
                bytes += entry.length;
            }
            if (!entries.isEmpty()) {
                frame(entries);
            }
        }

        /** The message's part of a frame, or null when it cannot travel (counted and logged). */
        private byte[] entry(Message m, SignatureSource signatures) {
            byte[] entry;
            try {
                entry = codec.entry(m, signatures, signer != null);
            } catch (IllegalStateException e) {
                // It embeds another node's message whose signature this node no longer holds (e.g. the current
                // view's new-view, whose view-changes carry checkpoint proofs older than the stable checkpoint). It
                // cannot travel; the rest of the batch must.
                long n = unsignable.incrementAndGet();
                if (Long.bitCount(n) == 1) { // 1st, 2nd, 4th, 8th ...: visible, never a flood
                    LOG.warn("PBFT message {} to node {} not sent: {} [{} so far]", m, id, e.getMessage(), n);
                }
                return null;
            }
            if (BinaryCodec.HEADER_BYTES + entry.length > maxFrameBytes) {
                long n = tooLarge.incrementAndGet();
                if (Long.bitCount(n) == 1) {
                    LOG.warn("PBFT message {} to node {} not sent: {} bytes, more than a frame holds ({}) [{} so far]",
                            m, id, entry.length, maxFrameBytes, n);
                }
                return null;
            }
            return entry;
        }

        private void frame(List<byte[]> entries) throws InterruptedException {
            if (transport.send(id, codec.frame(entries))) {
                messagesSent.addAndGet(entries.size());
            }
        }
    }
}
