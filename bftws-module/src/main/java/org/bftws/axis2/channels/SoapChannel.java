package org.bftws.axis2.channels;

import org.bftws.channels.PeerRouting;
import org.bftws.channels.PeerSender;
import org.bftws.channels.ReplicaChannel;
import org.bftws.channels.SettledMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.rm.ClientSequences;
import org.bftws.axis2.rm.RmSource;
import org.bftws.core.Destination;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.rm.Backoff;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.RecordedSignatures;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.SignatureSource;
import org.bftws.wire.WireBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SOAP replica channel ({@code replicaChannel="soap"}, the paper's design): PBFT messages to the other nodes of the
 * group as SOAP one-way messages (paper 3.3.1.8: each replica keeps a WS-RM sequence with every other one), received
 * by the control service ({@code ControlService} of the ordering side). One queue and one sender thread per peer: the
 * thread takes everything queued, signs this node's transferable messages once (the signature cache keeps them for the other peers and for later proofs), and sends
 * them as one {@code pbft:Messages} SOAP message on the peer's control service, over this node's WS-RM sequence to
 * that peer. While one message is in flight the next ones gather: batching under load costs nothing at low load.
 * A peer that is down costs only its queue, bounded: PBFT's status exchange resends whatever matters once it is back.
 * The queue holds each message once ({@link PeerQueue}): while a slow peer's bundle is in flight, the core's
 * retransmissions would otherwise pile up copies of the same large messages.
 */
public final class SoapChannel implements ReplicaChannel {
    private static final Logger LOG = LoggerFactory.getLogger(SoapChannel.class);
    /** Messages kept for one peer that does not answer; older ones are dropped beyond this. */
    private static final int QUEUE_LIMIT = 10_000;
    /** The WS-RM sequence key of PBFT traffic, apart from any application sequence to the same node. */
    static final String SEQUENCE_KEY = "bftws-pbft";
    /** The control service's action: a {@code pbft:Messages} bundle. */
    public static final String ACTION = "urn:bftws:pbft:Messages";
    /**
     * WS-RM retransmission of a bundle: twice, soon. PBFT resends what matters itself (status exchange); with the
     * group's schedule (8 retransmissions, minutes of backoff) the channel to a crashed peer stayed blocked on one
     * old bundle long after the peer restarted, and the restarted peer heard nothing from this node meanwhile.
     */
    private static final Backoff PEER_BACKOFF = Backoff.of(java.time.Duration.ofMillis(250), 2);

    private final int self;
    private final Membership membership;
    private final Map<Integer, Peer> peers = new TreeMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong unsignable = new AtomicLong();
    private final SettledMessages settled = new SettledMessages();

    public SoapChannel(ConfigurationContext context, int self, Membership membership, Map<Integer, String> controlEndpoints,
                    BundleCodec codec, MessageSigner signer, SignatureCache cache, RmSource source) {
        this.self = self;
        this.membership = membership;
        controlEndpoints.forEach((id, endpoint) -> {
            if (id != self) {
                peers.put(id, new Peer(context, id, endpoint, codec, signer, cache, source));
            }
        });
    }

    @Override
    public void start() {
        peers.values().forEach(Peer::start);
    }

    @Override
    public void stop() {
        peers.values().forEach(Peer::stop);
    }

    @Override
    public void send(Destination to, Message m) {
        if (to instanceof Destination.Node n) {
            Peer p = peers.get(n.id());
            if (p != null) {
                p.offer(m);
            }
            return;
        }
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

    /**
     * Bundles sent, bundles whose sending failed (dropped: PBFT's status exchange resends what matters), messages not
     * queued again because the same one (or a newer status) was still waiting, messages left out because a
     * signature they embed is no longer known here.
     */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>();
        m.put("PBFT bundles sent", sent.get());
        m.put("PBFT bundle send failures", failures.get());
        m.put("PBFT duplicates not queued", peers.values().stream().mapToLong(PeerSender::duplicatesNotQueued).sum());
        m.put("PBFT messages without known signatures", unsignable.get());
        m.put("PBFT messages left out as settled", settled.skipped());
        return m;
    }

    /** One peer: its queue, its sender thread and its ServiceClient on the node's own Axis2 configuration. */
    private final class Peer extends PeerSender {
        private final String endpoint;
        private final BundleCodec codec;
        private final MessageSigner signer;
        private final SignatureCache cache;
        private final RmSource source;
        private final ServiceClient client;

        Peer(ConfigurationContext context, int id, String endpoint, BundleCodec codec, MessageSigner signer,
             SignatureCache cache, RmSource source) {
            super(id, QUEUE_LIMIT, cache, settled);
            this.endpoint = endpoint;
            this.codec = codec;
            this.signer = signer;
            this.cache = cache;
            this.source = source;
            try {
                this.client = new ServiceClient(context, null);
            } catch (AxisFault e) {
                throw new IllegalStateException("cannot create the PBFT channel to " + endpoint, e);
            }
            Options options = new Options();
            options.setTo(new EndpointReference(endpoint));
            options.setAction(ACTION);
            options.setProperty(RmSource.SEQUENCE_KEY, SEQUENCE_KEY);
            options.setProperty(Backoff.PROPERTY, PEER_BACKOFF);
            options.setTimeOutInMilliSeconds(30_000);
            client.setOptions(options);
        }

        @Override
        public void run() {
            int consecutiveFailures = 0;
            while (running) {
                List<Message> bundle = List.of();
                try {
                    bundle = nextBatch(codec.limits().maxMessages(), 1_000);
                    if (bundle.isEmpty()) {
                        continue;
                    }
                    send(bundle);
                    sent.incrementAndGet();
                    consecutiveFailures = 0;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (AxisFault | RuntimeException e) {
                    failures.incrementAndGet();
                    consecutiveFailures++;
                    // The peer may have restarted and forgotten our sequence: start a new one next time.
                    source.sequences().remove(ClientSequences.key(endpoint, SEQUENCE_KEY));
                    LOG.debug("PBFT messages to node {} lost ({}): {}", id, bundle.size(), e.toString());
                    pause(Math.min(1_000L, 10L << Math.min(consecutiveFailures, 7)));
                }
            }
        }

        private void send(List<Message> bundle) throws AxisFault {
            if (signer != null) {
                for (Message m : bundle) {
                    signer.signOwnParts(m, cache);
                }
            }
            RecordedSignatures signatures = new RecordedSignatures(pins.signaturesFor(bundle));
            List<Message> sent = bundle;
            OMElement body;
            try {
                body = codec.encode(sent, signatures, signer != null, OMAbstractFactory.getOMFactory(), null);
            } catch (IllegalStateException unsignable) {
                // A message embeds another node's message whose signature this node no longer holds (e.g. the
                // current view's new-view, whose view-changes carry checkpoint proofs older than the stable
                // checkpoint). It cannot travel, but the rest of the bundle must: losing it whole, again at every
                // status exchange, cut a lagging peer off from this node.
                sent = withoutUnsignable(bundle, signatures);
                if (sent.isEmpty()) {
                    return;
                }
                body = codec.encode(sent, signatures, signer != null, OMAbstractFactory.getOMFactory(), null);
            }
            // the mac profile authenticates the bundle's canonical form: hand it over rather than decode it again
            client.getOptions().setProperty(WireBundle.OUTGOING, new WireBundle.Sent(body, signatures.bundleOf(sent)));
            client.sendRobust(body);
            client.cleanupTransport();
        }

        private List<Message> withoutUnsignable(List<Message> bundle, SignatureSource signatures) {
            List<Message> sendable = new ArrayList<>(bundle.size());
            for (Message m : bundle) {
                try {
                    codec.encode(List.of(m), signatures, signer != null, OMAbstractFactory.getOMFactory(), null);
                    sendable.add(m);
                } catch (IllegalStateException e) {
                    long n = unsignable.incrementAndGet();
                    if (Long.bitCount(n) == 1) { // 1st, 2nd, 4th, 8th ...: visible, never a flood
                        LOG.warn("PBFT message {} to node {} not sent: {} [{} so far]", m, id, e.getMessage(), n);
                    }
                }
            }
            return sendable;
        }

        private void pause(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
