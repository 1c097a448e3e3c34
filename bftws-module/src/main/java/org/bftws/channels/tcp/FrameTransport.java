package org.bftws.channels.tcp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's binary channel transport (docs/wire.md, "The binary channel"): one persistent TCP connection with each
 * peer, opened by the node with the lower id and authenticated by a handshake under the pair key, carrying two
 * streams of numbered, MACed frames that are delivered exactly once and in order across broken connections and
 * peer restarts ({@link PeerLink}). It moves byte payloads; what they mean is the {@link FrameReceiver}'s business.
 * Plain JDK blocking sockets: a writer thread per peer and a reader thread per connection, which at 4 to 10 nodes
 * is a few dozen threads.
 *
 * <p>A bad connection or frame (see {@link Refusal}) closes that connection only, is counted and logged once; the
 * peer's link dials (or waits) again, and every other link goes on.
 */
public final class FrameTransport {
    private static final Logger LOG = LoggerFactory.getLogger(FrameTransport.class);

    private final int self;
    private final InetSocketAddress listen;
    private final TransportSettings settings;
    private final FrameReceiver receiver;
    private final ChannelKeys keys;
    private final ChannelTls tls;
    private final byte[] context;
    private final long incarnation = Handshake.newIncarnation();
    private final Map<Integer, PeerLink> links = new TreeMap<>();
    private final TransportCounters counters = new TransportCounters();
    private final Semaphore handshakes;
    private final Handshake.Local local;
    private ServerSocket server;
    private Thread acceptor;
    private volatile boolean running;

    /**
     * @param self     this node's id
     * @param peers    every peer's channel address, by id (this node's own entry, if any, is ignored)
     * @param listen   the address this node accepts connections on (its own channel address)
     * @param context  bound into every handshake proof and frame key: the group's name
     * @param keys     the pair keys, or {@link ChannelKeys#none()}
     * @param receiver takes the peers' payloads
     */
    public FrameTransport(int self, Map<Integer, InetSocketAddress> peers, InetSocketAddress listen, byte[] context,
                          ChannelKeys keys, FrameReceiver receiver, TransportSettings settings) {
        this(self, peers, listen, context, keys, null, receiver, settings);
    }

    /** As above, every connection over TLS when {@code tls} is not null (replicas.xml's {@code <tls>}). */
    public FrameTransport(int self, Map<Integer, InetSocketAddress> peers, InetSocketAddress listen, byte[] context,
                          ChannelKeys keys, ChannelTls tls, FrameReceiver receiver, TransportSettings settings) {
        this.self = self;
        this.tls = tls;
        this.listen = listen;
        this.settings = settings;
        this.receiver = receiver;
        this.keys = keys;
        this.context = context.clone();
        this.handshakes = new Semaphore(settings.maxHandshakes());
        peers.forEach((id, address) -> {
            if (id != self) {
                links.put(id, new PeerLink(this, id, address, self < id));
            }
        });
        this.local = new Handshake.Local() {
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
                return context;
            }

            @Override
            public ChannelKeys keys() {
                return keys;
            }

            @Override
            public boolean tls() {
                return tls != null;
            }

            @Override
            public boolean dialsHere(int id) {
                return id < self && links.containsKey(id);
            }

            @Override
            public long deliveredFrom(int peer, long peerIncarnation) {
                PeerLink link = links.get(peer);
                return link == null ? 0 : link.deliveredFrom(peerIncarnation);
            }
        };
    }

    /** Binds the listening address (nowhere else) and starts accepting and dialling. */
    public void start() throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true); // a restarted node takes its port back at once
        server.bind(listen, 64);
        running = true;
        acceptor = new Thread(this::accept, "bftws-channel-accept-" + self);
        acceptor.setDaemon(true);
        acceptor.start();
        links.values().forEach(PeerLink::start);
        LOG.info("binary channel of node {} listens on {} ({})", self, server.getLocalSocketAddress(),
                tls != null ? "TLS, both ends presenting their deployment certificate"
                : keys.authenticated() ? "plain TCP, not encrypted: frames MACed with the pair keys"
                : "plain TCP, not encrypted; no keys: frames are not authenticated");
    }

    /** Closes the listening socket and every connection; a node may bind the same address again at once. */
    public void stop() {
        running = false;
        if (server != null) {
            try {
                server.close();
            } catch (IOException ignored) {
                // the acceptor ends either way
            }
        }
        links.values().forEach(PeerLink::stop);
        if (acceptor != null) {
            // the JDK releases a listening socket that a thread is accepting on only when that thread leaves accept
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Hands a payload to {@code peer}'s link: it waits while the previous payload for that peer is still waiting
     * to be written, then returns; the link delivers it once the peer is reachable. False when there is no such peer
     * or the transport stopped.
     */
    public boolean send(int peer, byte[] payload) throws InterruptedException {
        PeerLink link = links.get(peer);
        return link != null && link.send(payload);
    }

    /** The port it listens on (for a listening address with port 0). */
    public int port() {
        return server.getLocalPort();
    }

    public TransportCounters counters() {
        return counters;
    }

    TransportSettings settings() {
        return settings;
    }

    FrameReceiver receiver() {
        return receiver;
    }

    Handshake.Local local() {
        return local;
    }

    /** Socket options of every connection, and its streams; the handshake must finish within its timeout. */
    FramedConnection.Streams configure(Socket socket) throws IOException {
        socket.setTcpNoDelay(true); // small frames (a prepare, an acknowledgement) must not wait for more
        socket.setKeepAlive(true);
        socket.setSoTimeout((int) settings.handshakeTimeout().toMillis());
        return FramedConnection.Streams.of(socket);
    }

    private void accept() {
        while (running) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (SocketException closed) {
                return;
            } catch (IOException e) {
                LOG.warn("binary channel of node {}: accept failed: {}", self, e.toString());
                continue;
            }
            if (!running) {
                // a closed listening socket accepts until this thread leaves accept(): a peer must not complete a
                // handshake with a node that is stopping, or it would number frames for a run that is ending
                close(socket);
                return;
            }
            if (!handshakes.tryAcquire()) {
                counters.refused("from " + socket.getRemoteSocketAddress(), new ChannelRefusal(
                        Refusal.TOO_MANY_HANDSHAKES, settings.maxHandshakes() + " handshakes under way"));
                close(socket);
                continue;
            }
            Thread t = new Thread(() -> {
                try {
                    handshake(socket);
                } finally {
                    handshakes.release();
                }
            }, "bftws-channel-handshake-" + self);
            t.setDaemon(true);
            t.start();
        }
    }

    private void handshake(Socket plain) {
        if (!running) {
            close(plain);
            return;
        }
        Socket socket = plain;
        try {
            FramedConnection.Streams streams = configure(socket);
            if (tls != null) {
                socket = tls.secure(plain, false);
                streams = FramedConnection.Streams.of(socket);
            }
            Handshake.Session session = Handshake.accept(streams.in(), streams.out(), local);
            checkPeer(socket, session.peer());
            socket.setSoTimeout((int) settings.idleTimeout().toMillis());
            links.get(session.peer()).install(streams.framed(session, settings.maxFrameBytes()), session);
        } catch (ChannelRefusal r) {
            counters.refused("from " + plain.getRemoteSocketAddress(), r);
            close(socket);
        } catch (javax.net.ssl.SSLException e) {
            counters.refused("from " + plain.getRemoteSocketAddress(), tlsFailed(e));
            close(socket);
        } catch (IOException e) {
            LOG.debug("binary channel of node {}: handshake with {} failed: {}", self, socket.getRemoteSocketAddress(),
                    e.toString());
            close(socket);
        }
    }

    /** Refuses the connection when TLS is on and its peer's certificate is not node {@code peer}'s. */
    void checkPeer(Socket socket, int peer) throws ChannelRefusal {
        if (tls != null) {
            String why = tls.notNode((javax.net.ssl.SSLSocket) socket, peer);
            if (why != null) {
                throw new ChannelRefusal(Refusal.WRONG_CERTIFICATE, why);
            }
        }
    }

    /** {@code plain}, connected, as the channel speaks on it: over TLS when {@code <tls>} is on. */
    Socket secured(Socket plain, boolean dialling) throws java.io.IOException {
        return tls == null ? plain : tls.secure(plain, dialling);
    }

    /** A failed TLS handshake as a refusal: the reason in one line (the certificate's problem, or what was sent). */
    static ChannelRefusal tlsFailed(javax.net.ssl.SSLException e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        // a refused certificate's own reason (the trust manager's one line), else what TLS said
        String why = root != e && root instanceof java.security.cert.CertificateException && root.getMessage() != null
                ? root.getMessage() : e.getMessage();
        return new ChannelRefusal(Refusal.TLS_FAILED, why);
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing more to do with it
        }
    }
}
