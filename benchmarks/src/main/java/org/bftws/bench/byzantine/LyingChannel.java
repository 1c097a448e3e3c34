package org.bftws.bench.byzantine;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Message;

/**
 * A Byzantine replica's outbound PBFT channel: its Total Order Manager sends through it, and it hands the real channel
 * what the mode makes of each message (dropped, altered, repeated, or extra ones), which the real channel then
 * authenticates as usual, so every lie is validly authenticated. Counts the lies it told ({@code Byzantine lies}
 * in the replica's counters).
 */
abstract class LyingChannel implements ReplicaChannel {

    protected final ReplicaChannel real;
    protected final int self;
    private final AtomicLong lies = new AtomicLong();

    LyingChannel(ReplicaChannel real, int self) {
        this.real = real;
        this.self = self;
    }

    /** What the mode sends instead of {@code m}: through {@link #real}, counting each lie with {@link #lied()}. */
    abstract void lie(Destination to, Message m);

    @Override
    public final void send(Destination to, Message m) {
        lie(to, m);
    }

    /** One more lie told. */
    final void lied() {
        lies.incrementAndGet();
    }

    final long lies() {
        return lies.get();
    }

    @Override
    public void start() {
        real.start();
    }

    @Override
    public void stop() {
        real.stop();
    }

    @Override
    public void stableCheckpointIs(long seq) {
        real.stableCheckpointIs(seq);
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> m = new TreeMap<>(real.counters());
        m.put("Byzantine lies", lies.get());
        return m;
    }
}
