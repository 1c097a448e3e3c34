package org.bftws.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Fig. 10 of the BFT-WS paper: state transfer latency against the size of the state. As in the paper, a replica
 * is restarted (here: killed, and started again with nothing in memory and no data directory) while one client
 * issues requests; it learns the stable checkpoint from the others, fetches it with its proof, checks it and
 * delivers set_state. Timed inside the restarted replica: its first FetchState until the state is installed.
 */
final class TransferFigures {

    private static final int INTERVAL = 10;

    private TransferFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws Exception {
        List<Integer> sizes = options.sizes(List.of(0, 1_000, 10_000, 127_000), List.of(0, 10_000));
        out.println("state transfer latency (Fig. 10): a backup killed, " + (3 * INTERVAL)
                + " appends without it, restarted empty while one client goes on; checkpoint every " + INTERVAL);
        out.println("| state elements | state size | transfers | first FetchState to state installed, ms | max |"
                + " restart to caught up, s |");
        out.println("| --- | --- | --- | --- | --- | --- |");
        for (int elements : sizes) {
            try (MeasureGroup g = MeasureGroup.start(options, "transfer-" + elements,
                    MeasureGroup.protocol(INTERVAL, "10s"), false, elements)) {
                ReplicaGroup group = g.group();
                g.load("t" + elements + "a", 2 * INTERVAL, 600);
                int backup = (group.primary() + 3) % ReplicaGroup.SIZE;
                group.crash(backup);
                g.load("t" + elements + "b", 3 * INTERVAL, 600);
                long t0 = System.nanoTime();
                group.restart(backup, false);
                g.clients().start("t" + elements + "c", 1);
                ReplicaTimings t = awaitTransfer(g, backup, 300);
                double caughtUp = (System.nanoTime() - t0) / 1e9;
                g.clients().stop();
                ReplicaTimings.Series s = t == null ? ReplicaTimings.Series.NONE : t.series("transfer");
                out.printf(Locale.ROOT, "| %d | %s | %d | %s | %s | %s |%n", elements,
                        ReplicaTimings.bytes(t == null ? -1 : t.transferBytes()), s.count(),
                        ReplicaTimings.ms(s.count() == 0 ? Double.NaN : s.meanMs()), ReplicaTimings.ms(s.maxMs()),
                        t == null ? "not within 300 s" : String.format(Locale.ROOT, "%.1f", caughtUp));
                out.flush();
            }
        }
    }

    /** Waits until replica {@code i} installed a transferred state and executes again; null after the timeout. */
    private static ReplicaTimings awaitTransfer(MeasureGroup g, int i, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            ReplicaTimings t = g.timings(i);
            if (t.series("transfer").count() > 0 && t.executed() > t.stable()) {
                return t;
            }
            Thread.sleep(250);
        }
        return null;
    }
}
