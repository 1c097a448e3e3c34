package org.bftws.channels.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's link with one peer: the two frame streams (ours to it, its to us) that outlive any one TCP connection,
 * the connection that carries them now, and the thread that writes on it.
 *
 * <p>Our stream: payloads handed to {@link #send} get consecutive numbers from 1 when the writer takes them, and stay
 * in the window until the peer acknowledges them. When a connection breaks, the next one's handshake says which
 * frame the peer delivered last; the rest of the window is written again, in order, on the new connection. Its
 * stream: a data frame is delivered when its number is the next one; an older number is a retransmission already
 * delivered (skipped); a newer one means a frame was lost inside a connection, which TCP never does: refused. So
 * every frame is delivered exactly once, in order, however often connections break. When the handshake shows the
 * peer restarted (a new incarnation), both streams start over from 1 and the window's frames, meant for a node that
 * no longer exists, are dropped: PBFT's status exchange tells the new one what it lacks.
 *
 * <p>The lower-id node of a pair dials, and dials again (20 ms, doubling to 500 ms) whenever its connection is gone;
 * the other accepts, and a newly authenticated connection from the peer replaces the old one.
 *
 * <p>Locks: {@code deliveryLock} orders deliveries (a new connection's frames wait for the old connection's reader
 * to finish delivering); {@code this} guards the state. Sockets are written outside both, so a writer blocked by a
 * full TCP buffer never stops this node's reader from reading (which would deadlock two nodes writing to each other).
 */
final class PeerLink {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);
    /** An acknowledgement is written at once when this many frames wait for one. */
    private static final int ACK_EVERY = 32;

    /** A numbered frame of our stream. */
    private record OutFrame(long number, byte[] payload) {
    }

    private final FrameTransport transport;
    private final int peer;
    private final InetSocketAddress address;
    private final boolean dials;
    private final Object deliveryLock = new Object();

    // our stream (guarded by this)
    private byte[] pending;
    private long nextNumber = 1;
    private final ArrayDeque<OutFrame> window = new ArrayDeque<>();
    private long windowBytes;
    private long peerIncarnation;
    // the peer's stream (guarded by this; changed under deliveryLock too)
    private long delivered;
    private long ackSent;
    private long ackOwedSince = -1;
    // the connection (guarded by this)
    private FramedConnection current;
    private FramedConnection resentOn;
    private long lastWrite = System.nanoTime();
    private boolean everConnected;
    private volatile boolean running = true;
    private Thread writer;

    PeerLink(FrameTransport transport, int peer, InetSocketAddress address, boolean dials) {
        this.transport = transport;
        this.peer = peer;
        this.address = address;
        this.dials = dials;
    }

    void start() {
        writer = new Thread(this::write, "bftws-channel-to-" + peer);
        writer.setDaemon(true);
        writer.start();
    }

    void stop() {
        running = false;
        FramedConnection c;
        synchronized (this) {
            c = current;
            current = null;
            notifyAll();
        }
        if (c != null) {
            c.close();
        }
        if (writer != null) {
            writer.interrupt();
        }
    }

    /**
     * Queues a payload for the peer: waits while an earlier one is still waiting to be written (so a caller that
     * batches keeps batching while a frame is on the wire), then returns. False when the link stopped.
     */
    boolean send(byte[] payload) throws InterruptedException {
        synchronized (this) {
            while (running && pending != null) {
                wait();
            }
            if (!running) {
                return false;
            }
            pending = payload;
            notifyAll();
            return true;
        }
    }

    /** For the handshake: the last frame delivered from the peer's stream, if it is still that incarnation. */
    synchronized long deliveredFrom(long incarnation) {
        return incarnation == peerIncarnation ? delivered : 0;
    }

    // ----- the writer thread

    private void write() {
        long backoff = transport.settings().reconnectMin().toMillis();
        while (running) {
            FramedConnection c;
            synchronized (this) {
                c = current;
            }
            if (c == null) {
                if (!dials) {
                    awaitConnection();
                } else if (dial()) {
                    backoff = transport.settings().reconnectMin().toMillis();
                } else {
                    pause(backoff);
                    backoff = Math.min(2 * backoff, transport.settings().reconnectMax().toMillis());
                }
                continue;
            }
            try {
                writeNext(c);
            } catch (IOException e) {
                lost(c, e.toString());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** What the writer does next on {@code c}: resend the window, send the waiting payload, or acknowledge. */
    private void writeNext(FramedConnection c) throws IOException, InterruptedException {
        List<OutFrame> frames;
        boolean resend = false;
        long ack;
        synchronized (this) {
            while (true) {
                if (!running || current != c) {
                    return;
                }
                long now = System.nanoTime();
                if (resentOn != c) {
                    resentOn = c;
                    if (!window.isEmpty()) {
                        frames = new ArrayList<>(window);
                        resend = true;
                        break;
                    }
                }
                if (pending != null && windowHasRoom()) {
                    OutFrame f = new OutFrame(nextNumber++, pending);
                    pending = null;
                    window.addLast(f);
                    windowBytes += f.payload().length;
                    notifyAll(); // send() may hand over the next payload
                    frames = List.of(f);
                    break;
                }
                long ackWait = delivered > ackSent
                        ? (delivered - ackSent >= ACK_EVERY ? 0 : transport.settings().ackDelay().toNanos() - (now - ackOwedSince))
                        : Long.MAX_VALUE;
                long heartbeatWait = transport.settings().heartbeat().toNanos() - (now - lastWrite);
                if (ackWait <= 0 || heartbeatWait <= 0) {
                    frames = List.of();
                    break;
                }
                TimeUnit.NANOSECONDS.timedWait(this, Math.min(ackWait, heartbeatWait));
            }
            ack = delivered;
        }
        TransportCounters counters = transport.counters();
        if (frames.isEmpty()) {
            counters.bytesSent.addAndGet(c.writeAck(ack));
        } else {
            for (int i = 0; i < frames.size(); i++) {
                OutFrame f = frames.get(i);
                counters.bytesSent.addAndGet(c.writeData(f.number(), ack, f.payload(), i == frames.size() - 1));
                counters.framesSent.incrementAndGet();
            }
            if (resend) {
                counters.framesRetransmitted.addAndGet(frames.size());
            }
        }
        synchronized (this) {
            lastWrite = System.nanoTime();
            if (current == c) {
                ackSent = Math.max(ackSent, ack);
                ackOwedSince = delivered > ackSent ? lastWrite : -1;
            }
        }
    }

    private boolean windowHasRoom() {
        TransportSettings s = transport.settings();
        return window.isEmpty()
                || (window.size() < s.windowFrames() && windowBytes + pending.length <= s.windowBytes());
    }

    private void awaitConnection() {
        synchronized (this) {
            while (running && current == null) {
                try {
                    wait(1_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void pause(long millis) {
        synchronized (this) {
            try {
                if (running) {
                    wait(millis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Opens a connection to the peer and runs the dialler's handshake; true when a connection is installed. */
    private boolean dial() {
        Socket socket = new Socket();
        try {
            // a peer's name is resolved each time it is dialled: it may have moved, or been down at start-up
            InetSocketAddress target = address.isUnresolved()
                    ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
            socket.connect(target, (int) transport.settings().connectTimeout().toMillis());
            FramedConnection.Streams streams = transport.configure(socket);
            Socket secured = transport.secured(socket, true);
            if (secured != socket) {
                socket = secured;
                transport.checkPeer(socket, peer); // before anything is said to it
                streams = FramedConnection.Streams.of(socket);
            }
            Handshake.Session session = Handshake.dial(streams.in(), streams.out(), peer, transport.local());
            socket.setSoTimeout((int) transport.settings().idleTimeout().toMillis());
            return install(streams.framed(session, transport.settings().maxFrameBytes()), session);
        } catch (ChannelRefusal r) {
            transport.counters().refused("to node " + peer + " at " + address, r);
        } catch (javax.net.ssl.SSLException e) {
            transport.counters().refused("to node " + peer + " at " + address, FrameTransport.tlsFailed(e));
        } catch (IOException e) {
            transport.counters().dialFailures.incrementAndGet();
            LOG.debug("binary channel: cannot reach node {} at {}: {}", peer, address, e.toString());
        }
        close(socket);
        return false;
    }

    // ----- connections

    /**
     * Makes {@code c}, authenticated by {@code session}, this link's connection: resynchronises both streams with
     * what the handshake said, closes the previous connection, starts the reader. False (and {@code c} closed) when
     * the peer's numbers cannot be right or the link stopped.
     */
    boolean install(FramedConnection c, Handshake.Session session) {
        FramedConnection old;
        synchronized (deliveryLock) {
            synchronized (this) {
                if (!running) {
                    c.close();
                    return false;
                }
                if (session.peerIncarnation() != peerIncarnation) {
                    if (!window.isEmpty()) {
                        transport.counters().droppedForRestartedPeer.addAndGet(window.size());
                        LOG.info("binary channel: node {} restarted; {} unacknowledged frames for its previous run"
                                + " dropped", peer, window.size());
                    }
                    window.clear();
                    windowBytes = 0;
                    nextNumber = 1;
                    delivered = 0;
                    peerIncarnation = session.peerIncarnation();
                }
                long first = window.isEmpty() ? nextNumber : window.peekFirst().number();
                if (session.peerDelivered() < first - 1 || session.peerDelivered() > nextNumber - 1) {
                    // Only a faulty peer (or one that shares our key with an impostor) says this. Refusing would cut
                    // the link for good; take its word instead: the window goes on from the frame it expects.
                    transport.counters().resynchronisations.incrementAndGet();
                    LOG.warn("binary channel: node {} says it delivered frame {} of this node's stream; frames {}..{}"
                            + " are unacknowledged: numbering the window again from {}", peer, session.peerDelivered(),
                            first, nextNumber - 1, session.peerDelivered() + 1);
                    renumberFrom(session.peerDelivered() + 1);
                }
                acknowledge(session.peerDelivered());
                old = current;
                current = c;
                resentOn = null;
                ackSent = session.deliveredTold();
                ackOwedSince = delivered > ackSent ? System.nanoTime() : -1;
                lastWrite = System.nanoTime();
                transport.counters().connections.incrementAndGet();
                if (everConnected) {
                    transport.counters().reconnects.incrementAndGet();
                }
                everConnected = true;
                notifyAll();
            }
        }
        if (old != null) {
            old.close();
        }
        LOG.info("binary channel with node {} connected ({}); {} frames to resend", peer, c, unacknowledged());
        Thread reader = new Thread(() -> read(c), "bftws-channel-from-" + peer);
        reader.setDaemon(true);
        reader.start();
        return true;
    }

    private synchronized int unacknowledged() {
        return window.size();
    }

    /** Gives the window's frames consecutive numbers from {@code first}. Caller holds {@code this}. */
    private void renumberFrom(long first) {
        ArrayDeque<OutFrame> renumbered = new ArrayDeque<>();
        long n = first;
        for (OutFrame f : window) {
            renumbered.addLast(new OutFrame(n++, f.payload()));
        }
        window.clear();
        window.addAll(renumbered);
        nextNumber = n;
    }

    /** Drops the window's frames up to {@code number}: the peer has them. Caller holds {@code this}. */
    private void acknowledge(long number) {
        while (!window.isEmpty() && window.peekFirst().number() <= number) {
            windowBytes -= window.pollFirst().payload().length;
        }
        notifyAll();
    }

    private void read(FramedConnection c) {
        try {
            while (received(c, c.read())) {
                // next frame
            }
        } catch (ChannelRefusal r) {
            transport.counters().refused("from node " + peer, r);
        } catch (SocketTimeoutException e) {
            lostQuietly(c, "nothing arrived for " + transport.settings().idleTimeout().toSeconds() + " s");
            return;
        } catch (EOFException e) {
            lostQuietly(c, "closed by node " + peer);
            return;
        } catch (IOException e) {
            lostQuietly(c, e.toString());
            return;
        }
        lost(c, null);
    }

    /** Applies a frame read on {@code c}; false when {@code c} is no longer this link's connection. */
    private boolean received(FramedConnection c, FramedConnection.Frame f) throws ChannelRefusal {
        synchronized (deliveryLock) {
            long due;
            synchronized (this) {
                if (current != c) {
                    return false;
                }
                if (f.ack() > nextNumber - 1) {
                    throw new ChannelRefusal(Refusal.BAD_ACK, "node " + peer + " acknowledges frame " + f.ack()
                            + "; the last sent is " + (nextNumber - 1));
                }
                acknowledge(f.ack());
                due = delivered + 1;
            }
            if (f.type() != FramedConnection.DATA) {
                return true;
            }
            if (f.number() < due) {
                transport.counters().duplicatesSkipped.incrementAndGet();
                return true;
            }
            if (f.number() > due) {
                throw new ChannelRefusal(Refusal.OUT_OF_ORDER, "frame " + f.number() + " from node " + peer
                        + " where frame " + due + " was due");
            }
            transport.counters().framesReceived.incrementAndGet();
            transport.counters().bytesReceived.addAndGet(c.frameBytes(f.payload().length));
            try {
                transport.receiver().frame(peer, f.payload());
            } catch (RuntimeException e) {
                // the receiver's failure is its own: the frame was delivered, the stream goes on
                LOG.warn("binary channel: the receiver failed on frame {} from node {}", f.number(), peer, e);
            }
            synchronized (this) {
                delivered = f.number();
                if (ackOwedSince < 0) {
                    ackOwedSince = System.nanoTime();
                }
                notifyAll();
            }
            return true;
        }
    }

    private void lostQuietly(FramedConnection c, String why) {
        if (!c.closed()) {
            lost(c, why);
        }
    }

    /** {@code c} is broken or refused: closed, and no longer this link's connection. */
    private void lost(FramedConnection c, String why) {
        boolean wasCurrent;
        synchronized (this) {
            wasCurrent = current == c;
            if (wasCurrent) {
                current = null;
                notifyAll();
            }
        }
        c.close();
        if (wasCurrent && why != null) {
            transport.counters().connectionsLost.incrementAndGet();
            LOG.info("binary channel with node {} lost: {}", peer, why);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing more to do with it
        }
    }
}
