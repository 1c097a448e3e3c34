package org.bftws.channels;

import java.util.List;
import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;
import org.bftws.wire.SignatureCache;

/**
 * What both replica channels keep per peer: its queue ({@link PeerQueue}), the pins of the state snapshots queued
 * for it ({@link SnapshotPins}) and the thread that sends to it. The channel says how a batch goes out
 * ({@link #run}); this class hands it the batches, without the messages that settled while they waited
 * ({@link SettledMessages}).
 */
public abstract class PeerSender implements Runnable {
    protected final int id;
    protected final PeerQueue queue;
    protected final SnapshotPins pins;
    private final SettledMessages settled;
    protected volatile boolean running = true;
    private Thread thread;

    public PeerSender(int id, int queueLimit, SignatureCache cache, SettledMessages settled) {
        this.id = id;
        this.queue = new PeerQueue(queueLimit);
        this.pins = new SnapshotPins(cache);
        this.settled = settled;
    }

    public final void offer(Message m) {
        if (m instanceof StateSnapshot snapshot) {
            pins.pin(snapshot);
        }
        queue.offer(m);
    }

    /** The next batch to send: up to {@code max} messages, empty when none came within {@code waitMillis}. */
    protected final List<Message> nextBatch(int max, long waitMillis) throws InterruptedException {
        return settled.unsettled(queue.take(max, waitMillis));
    }

    /** Messages not queued again because the same one (or a newer status) was still waiting. */
    public final long duplicatesNotQueued() {
        return queue.duplicates();
    }

    public final void start() {
        thread = new Thread(this, "bftws-pbft-to-" + id);
        thread.setDaemon(true);
        thread.start();
    }

    public final void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
