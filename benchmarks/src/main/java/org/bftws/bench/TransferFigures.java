package org.bftws.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Fig. 10 of the BFT-WS paper: state transfer latency against the size of the state. As in the paper, a replica
 * is restarted (here: killed, and started again with nothing in memory and no data directory) while one client
 * issues requests; it learns the stable checkpoint from the others, fetches it with its proof, checks it and
 * delivers set_state. Timed inside the restarted replica: its first FetchState until the state is installed. Each
 * size is measured twice: with the client appending during the transfer (the group checkpoints every K requests
 * meanwhile, and the replica may have to fetch several states in a row) and with no request until the state is
 * installed (one transfer of one state: the latency Fig. 10 plots).
 */
final class TransferFigures {

    private static final int INTERVAL = 10;

    private TransferFigures() {
    }

    /** How the group is driven while the restarted replica fetches the state. */
    enum Mode {
        /** One client appends without pause: a new checkpoint every K requests, the target moves. */
        LOADED("client appending"),
        /**
         * No request while the replica fetches (the client resumes once the state is installed): the group's stable
         * checkpoint stays where it is, so one transfer of one state is timed, as Fig. 10 plots it against the size.
         */
        QUIET("no requests during the transfer");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    static void run(MeasureOptions options, PrintStream out) throws Exception {
        List<Integer> sizes = options.sizes(List.of(0, 1_000, 10_000, 127_000), List.of(0, 10_000));
        out.println("state transfer latency (Fig. 10): a backup killed, " + (3 * INTERVAL)
                + " appends without it, restarted empty; checkpoint every " + INTERVAL + "; 'client appending': one"
                + " client goes on appending during the transfer (the target moves; every transfer counted),"
                + " 'no requests': the client resumes only after the state was installed (one state, one transfer)");
        out.println("| state elements | during the transfer | state size | transfers | first FetchState to state installed,"
                + " ms | max | restart to caught up, s |");
        out.println("| --- | --- | --- | --- | --- | --- | --- |");
        for (int elements : sizes) {
            for (Mode mode : Mode.values()) {
                measure(options, elements, mode, out);
            }
        }
    }

    private static void measure(MeasureOptions options, int elements, Mode mode, PrintStream out) throws Exception {
        String tag = "t" + elements + mode.name().charAt(0);
        try (MeasureGroup g = MeasureGroup.start(options, "transfer-" + elements + "-" + mode.name().toLowerCase(Locale.ROOT),
                MeasureGroup.protocol(INTERVAL, "10s"), false, elements)) {
            ReplicaGroup group = g.group();
            g.load(tag + "a", 2 * INTERVAL, 600);
            int backup = (group.primary() + 3) % ReplicaGroup.SIZE;
            group.crash(backup);
            g.load(tag + "b", 3 * INTERVAL, 600);
            long t0 = System.nanoTime();
            group.restart(backup, false);
            ReplicaTimings t;
            try {
                t = transfer(g, backup, mode, tag);
            } catch (ReplicaDied e) {
                // a row that says so, and the next group: the other sizes and modes are still worth measuring
                g.clients().stop();
                out.printf(Locale.ROOT, "| %d | %s | - | - | %s | | |%n", elements, mode.label, e.getMessage());
                out.flush();
                return;
            }
            double caughtUp = (System.nanoTime() - t0) / 1e9;
            g.clients().stop();
            ReplicaTimings.Series s = t == null ? ReplicaTimings.Series.NONE : t.series("transfer");
            out.printf(Locale.ROOT, "| %d | %s | %s | %d | %s | %s | %s |%n", elements, mode.label,
                    ReplicaTimings.bytes(t == null ? -1 : t.transferBytes()), s.count(),
                    ReplicaTimings.ms(s.count() == 0 ? Double.NaN : s.meanMs()), ReplicaTimings.ms(s.maxMs()),
                    t == null ? "not within 300 s" : String.format(Locale.ROOT, "%.1f", caughtUp));
            out.flush();
        }
    }

    /** Restarted replica {@code backup}'s timings once it installed a state (and executes again); null: timeout. */
    private static ReplicaTimings transfer(MeasureGroup g, int backup, Mode mode, String tag) throws Exception {
        if (mode == Mode.LOADED) {
            g.clients().start(tag + "c", 1);
            return awaitTransfer(g, backup, 300, true);
        }
        // the others' status messages tell the restarted replica where the stable checkpoint is
        ReplicaTimings t = awaitTransfer(g, backup, 300, false);
        if (t != null) {
            g.clients().start(tag + "c", 1);
            t = awaitTransfer(g, backup, 300, true);
        }
        return t;
    }

    /** The restarted replica is gone (it ran out of heap, typically). */
    private static final class ReplicaDied extends RuntimeException {
        ReplicaDied(String message) {
            super(message);
        }
    }

    /**
     * Waits until replica {@code i} installed a transferred state (and, with {@code executing}, executes past the
     * stable checkpoint again); null after the timeout.
     */
    private static ReplicaTimings awaitTransfer(MeasureGroup g, int i, int seconds, boolean executing)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            ReplicaTimings t;
            try {
                t = g.timings(i);
            } catch (IllegalStateException noAnswer) {
                if (g.group().alive(i)) {
                    throw noAnswer;
                }
                throw new ReplicaDied(ReplicaGroup.name(i) + " died during the transfer (out of heap? see its log)");
            }
            if (t.series("transfer").count() > 0 && (!executing || t.executed() > t.stable())) {
                return t;
            }
            Thread.sleep(250);
        }
        return null;
    }
}
