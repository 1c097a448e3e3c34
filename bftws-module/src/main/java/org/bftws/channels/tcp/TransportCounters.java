package org.bftws.channels.tcp;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the binary channel of one node did, summed over its peers. Thread-safe. */
public final class TransportCounters {
    private static final Logger LOG = LoggerFactory.getLogger(TransportCounters.class);

    final AtomicLong framesSent = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong framesReceived = new AtomicLong();
    final AtomicLong bytesReceived = new AtomicLong();
    final AtomicLong framesRetransmitted = new AtomicLong();
    final AtomicLong duplicatesSkipped = new AtomicLong();
    final AtomicLong droppedForRestartedPeer = new AtomicLong();
    final AtomicLong connections = new AtomicLong();
    final AtomicLong reconnects = new AtomicLong();
    final AtomicLong connectionsLost = new AtomicLong();
    final AtomicLong dialFailures = new AtomicLong();
    /** Handshakes in which the peer's count of our frames did not fit our window (only a faulty peer's do). */
    final AtomicLong resynchronisations = new AtomicLong();
    private final Map<Refusal, AtomicLong> refusals = new EnumMap<>(Refusal.class);

    TransportCounters() {
        for (Refusal r : Refusal.values()) {
            refusals.put(r, new AtomicLong());
        }
    }

    /** Counts a refusal and logs it, one line without a stack trace, the 1st, 2nd, 4th, 8th... time per reason. */
    void refused(String where, ChannelRefusal refusal) {
        long n = refusals.get(refusal.reason()).incrementAndGet();
        if (Long.bitCount(n) == 1) {
            LOG.warn("binary channel {}: refused, connection closed: {} [{} so far]", where, refusal.getMessage(), n);
        }
    }

    public long refusals(Refusal reason) {
        return refusals.get(reason).get();
    }

    public long framesSent() {
        return framesSent.get();
    }

    public long framesReceived() {
        return framesReceived.get();
    }

    public long framesRetransmitted() {
        return framesRetransmitted.get();
    }

    /** Connections established after a first one to the same peer. */
    public long reconnects() {
        return reconnects.get();
    }

    /** Every counter by name; refusals as {@code "refused: REASON"}, only those that happened. */
    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        m.put("frames sent", framesSent.get());
        m.put("bytes sent", bytesSent.get());
        m.put("frames received", framesReceived.get());
        m.put("bytes received", bytesReceived.get());
        m.put("frames retransmitted", framesRetransmitted.get());
        m.put("duplicate frames skipped", duplicatesSkipped.get());
        m.put("frames dropped for a restarted peer", droppedForRestartedPeer.get());
        m.put("connections", connections.get());
        m.put("reconnects", reconnects.get());
        m.put("connections lost", connectionsLost.get());
        m.put("dial failures", dialFailures.get());
        m.put("inconsistent resynchronisations", resynchronisations.get());
        refusals.forEach((r, n) -> {
            if (n.get() > 0) {
                m.put("refused: " + r.text(), n.get());
            }
        });
        return m;
    }
}
