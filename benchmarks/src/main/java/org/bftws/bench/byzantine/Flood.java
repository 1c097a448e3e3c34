package org.bftws.bench.byzantine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;

/**
 * {@code flood}: besides taking part correctly, a thread sends the replica's recent messages (valid, validly
 * authenticated) to every node again and again, as fast as its channel takes them. The correct replicas must go on
 * ordering among the copies; their {@code PBFT messages received from NAME} counter shows the flood.
 */
final class Flood extends LyingChannel {

    private static final int RECENT = 32;
    /** Between rounds: the channel's queues skip a copy already waiting, so spinning faster only burns a core. */
    private static final long PAUSE_NANOS = 100_000;

    private final List<Message> recent = new ArrayList<>();
    private volatile boolean running;
    private Thread flooder;

    Flood(ReplicaChannel real, int self) {
        super(real, self);
    }

    @Override
    void lie(Destination to, Message m) {
        real.send(to, m);
        if (m.sender() == self && !(m instanceof StateSnapshot)) {
            synchronized (recent) {
                recent.add(m);
                if (recent.size() > RECENT) {
                    recent.remove(0);
                }
            }
        }
    }

    @Override
    public void start() {
        super.start();
        running = true;
        flooder = new Thread(this::flood, "byzantine-flood");
        flooder.setDaemon(true);
        flooder.start();
    }

    @Override
    public void stop() {
        running = false;
        if (flooder != null) {
            flooder.interrupt();
        }
        super.stop();
    }

    @Override
    public void stableCheckpointIs(long seq) {
        // not passed on: the real channel keeps 0, so settled copies go out too
    }

    private void flood() {
        while (running) {
            List<Message> copies;
            synchronized (recent) {
                copies = new ArrayList<>(recent);
            }
            for (Message m : copies) {
                real.send(new Destination.AllNodes(), m);
                lied();
            }
            LockSupport.parkNanos(PAUSE_NANOS);
        }
    }
}
