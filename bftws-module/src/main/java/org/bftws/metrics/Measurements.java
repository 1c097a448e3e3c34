package org.bftws.metrics;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import org.bftws.core.Checkpoint;
import org.bftws.core.FetchState;
import org.bftws.core.NewView;
import org.bftws.core.Output;

/**
 * Timings of this replica's recovery machinery (the BFT-WS paper's Figs 9-11), taken from what the replica already
 * does: the invoker says when it starts a checkpoint's {@code get_state}, and the {@code TotalOrderManager} shows
 * every batch of core outputs it routes. Wall-clock time ({@link System#nanoTime()}), not core ticks, because a
 * tick is only as long as the machine allows.
 *
 * <ul>
 *   <li>{@link Kind#CHECKPOINT}: the invoker takes a TakeCheckpoint until this replica's checkpoint message leaves
 *       (get_state, encoding, digest);</li>
 *   <li>{@link Kind#STABLE}: its checkpoint message left until that checkpoint (or a later one) is stable here;</li>
 *   <li>{@link Kind#STATE_TRANSFER}: its first FetchState left until the state is installed (StateTransferred);</li>
 *   <li>{@link Kind#NEW_VIEW}: at a new primary, its ViewChangeStarted until it sends the NewView;</li>
 *   <li>{@link Kind#VIEW_CHANGE}: at every replica, its ViewChangeStarted until it enters a view.</li>
 * </ul>
 * Also the size of the application state of the last checkpoint and of the last state transfer. Memory stays bounded: every series keeps
 * its last {@value #KEPT} samples (and counts all), pending starts are dropped once they can no longer complete.
 * Thread-safe.
 */
public final class Measurements {

    /** What is timed. */
    public enum Kind {
        CHECKPOINT("checkpoint"), STABLE("until-stable"), STATE_TRANSFER("transfer"), NEW_VIEW("new-view"),
        VIEW_CHANGE("view-change");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The name in {@link #describe()}. */
        public String label() {
            return label;
        }
    }

    /** Milliseconds of one series: how many samples, mean, median, max and the last one (over the kept samples). */
    public record Summary(long count, double meanMs, double p50Ms, double maxMs, double lastMs) {
    }

    static final int KEPT = 4096;
    private static final int PENDING_LIMIT = 64;

    private final int self;
    private final LongSupplier clock;
    private final Map<Kind, Series> series = new EnumMap<>(Kind.class);
    /** Checkpoint sequence number -> when the invoker started its get_state. */
    private final TreeMap<Long, Long> checkpointStarted = new TreeMap<>();
    /** Checkpoint sequence number -> when this replica's checkpoint message left. */
    private final TreeMap<Long, Long> checkpointSent = new TreeMap<>();
    private long fetchStarted = -1;
    private long viewChangeStarted = -1;
    private long checkpointBytes = -1;
    private long transferBytes = -1;

    /** Measurements of node {@code self} on the real clock. */
    public Measurements(int self) {
        this(self, System::nanoTime);
    }

    Measurements(int self, LongSupplier clock) {
        this.self = self;
        this.clock = clock;
        for (Kind k : Kind.values()) {
            series.put(k, new Series());
        }
    }

    /** The invoker starts the get_state of the checkpoint at {@code seq}. */
    public synchronized void checkpointStarted(long seq) {
        checkpointStarted.put(seq, clock.getAsLong());
        trim(checkpointStarted);
    }

    /** get_state returned {@code state} for the checkpoint just started; returns it unchanged. */
    public byte[] stateTaken(byte[] state) {
        synchronized (this) {
            checkpointBytes = state.length;
        }
        return state;
    }

    /** The manager routed {@code outputs}; afterwards the core's stable checkpoint is {@code stableSeq}. */
    public synchronized void observe(List<Output> outputs, long stableSeq) {
        long now = clock.getAsLong();
        for (Output o : outputs) {
            if (o instanceof Output.Send s) {
                sent(s, now);
            } else if (o instanceof Output.ViewChangeStarted && viewChangeStarted < 0) {
                viewChangeStarted = now;
            } else if (o instanceof Output.ViewInstalled && viewChangeStarted >= 0) {
                series.get(Kind.VIEW_CHANGE).add(now - viewChangeStarted);
                viewChangeStarted = -1;
            } else if (o instanceof Output.InstallState i) {
                transferBytes = i.applicationState().length;
            } else if (o instanceof Output.StateTransferred && fetchStarted >= 0) {
                series.get(Kind.STATE_TRANSFER).add(now - fetchStarted);
                fetchStarted = -1;
            }
        }
        // Checkpoints of this replica at or below the stable one are stable now.
        Map<Long, Long> stable = checkpointSent.headMap(stableSeq, true);
        stable.values().forEach(sentAt -> series.get(Kind.STABLE).add(now - sentAt));
        stable.clear();
    }

    private void sent(Output.Send s, long now) {
        if (s.message() instanceof Checkpoint c && c.sender() == self) {
            Long started = checkpointStarted.remove(c.seq());
            if (started != null) {
                series.get(Kind.CHECKPOINT).add(now - started);
            }
            checkpointStarted.headMap(c.seq()).clear();
            checkpointSent.putIfAbsent(c.seq(), now);
            trim(checkpointSent);
        } else if (s.message() instanceof FetchState f && f.sender() == self && fetchStarted < 0) {
            fetchStarted = now;
        } else if (s.message() instanceof NewView nv && nv.sender() == self && viewChangeStarted >= 0) {
            series.get(Kind.NEW_VIEW).add(now - viewChangeStarted);
        }
    }

    private static void trim(TreeMap<Long, Long> pending) {
        while (pending.size() > PENDING_LIMIT) {
            pending.pollFirstEntry();
        }
    }

    /** Every series; an empty series has count 0. */
    public synchronized Map<Kind, Summary> summaries() {
        Map<Kind, Summary> m = new EnumMap<>(Kind.class);
        series.forEach((k, s) -> m.put(k, s.summary()));
        return m;
    }

    /** Bytes of the application state the last checkpoint's get_state returned. */
    public synchronized long checkpointBytes() {
        return checkpointBytes;
    }

    /** Bytes of the application state of the last state transfer. */
    public synchronized long transferBytes() {
        return transferBytes;
    }

    /**
     * One line: {@code checkpoint=COUNT/MEAN/P50/MAX/LAST ... checkpoint-bytes=B transfer-bytes=B}, milliseconds
     * with two decimals; a series without samples reads {@code 0/-/-/-/-}.
     */
    public synchronized String describe() {
        String timings = Arrays.stream(Kind.values()).map(k -> k.label() + "=" + format(series.get(k).summary()))
                .collect(Collectors.joining(" "));
        return timings + " checkpoint-bytes=" + checkpointBytes + " transfer-bytes=" + transferBytes;
    }

    private static String format(Summary s) {
        if (s.count() == 0) {
            return "0/-/-/-/-";
        }
        return String.format(Locale.ROOT, "%d/%.2f/%.2f/%.2f/%.2f", s.count(), s.meanMs(), s.p50Ms(), s.maxMs(),
                s.lastMs());
    }

    /** The last {@value #KEPT} samples of one kind, in nanoseconds, and how many there were in all. */
    private static final class Series {
        private final long[] ring = new long[KEPT];
        private long count;

        void add(long nanos) {
            ring[(int) (count % KEPT)] = Math.max(0, nanos);
            count++;
        }

        Summary summary() {
            int n = (int) Math.min(count, KEPT);
            if (n == 0) {
                return new Summary(0, 0, 0, 0, 0);
            }
            long[] kept = Arrays.copyOf(ring, n);
            long last = ring[(int) ((count - 1) % KEPT)];
            Arrays.sort(kept);
            double sum = 0;
            for (long v : kept) {
                sum += v;
            }
            return new Summary(count, sum / n / 1e6, kept[(n - 1) / 2] / 1e6, kept[n - 1] / 1e6, last / 1e6);
        }
    }
}
