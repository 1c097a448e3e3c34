package org.bftws.bench;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Fig. 11 of the BFT-WS paper: view change latency at the new primary against the checkpoint interval. As in the
 * paper: one client, the primary shut down (here: SIGKILL) when the log holds K-1 ordered requests after the
 * stable checkpoint, so the view-changes carry K-1 prepared certificates each (a larger interval, larger
 * view-change and new-view messages to sign, verify and check), a 2 s view change timeout. Timed at the new
 * primary: its ViewChangeStarted until it sends the new-view; also each surviving replica's time until it entered the new
 * view, and what the client observed: from the kill to its first reply in the new view.
 */
final class ViewChangeFigures {

    private ViewChangeFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws Exception {
        List<Integer> intervals = options.quick() ? List.of(10) : List.of(10, 50, 100, 500);
        out.println("view change latency (Fig. 11): the primary killed when K-1 requests are ordered after the "
                + "stable checkpoint, one client, view change timeout 2 s");
        out.println("| checkpoint interval K | slots in the log | new primary: suspect to new-view sent, ms |"
                + " survivors: suspect to view entered, ms | client: kill to first reply in the new view, ms |");
        out.println("| --- | --- | --- | --- | --- |");
        for (int k : intervals) {
            try (MeasureGroup g = MeasureGroup.start(options, "viewchange-" + k, MeasureGroup.protocol(k, "2s"), false,
                    0)) {
                g.load("v" + k + "w", k - 1, 1200);
                int more = toFillTheLog(g, k);
                if (more > 0) {
                    g.load("v" + k + "x", more, 1200);
                }
                FailoverFigures.Failover f = FailoverFigures.killPrimary(g, "v" + k, 120);
                out.printf(Locale.ROOT, "| %d | %d | %s | %s | %s |%n", k, f.slots(), ReplicaTimings.ms(f.newViewMs()),
                        ReplicaTimings.ms(f.viewChangeMs()), f.clientMs() < 0 ? "no reply in a new view"
                                : String.format(Locale.ROOT, "%.0f", f.clientMs()));
                out.flush();
            }
        }
    }

    /**
     * How many more requests leave K-1 slots executed after the stable checkpoint at the primary: sequence numbers
     * are not requests one to one (a view change orders null requests), so counting requests alone can land the
     * kill right on a checkpoint with an empty log.
     */
    static int toFillTheLog(MeasureGroup g, int k) throws InterruptedException {
        ReplicaTimings p = g.timings(g.group().primary());
        // killPrimary lets one call of its client finish before the kill: that call is the (K-1)th slot
        return slotsToAdd(p.executed() - p.stable() + 1, k);
    }

    /** Requests (one per slot, one client) from {@code inLog} slots after the stable checkpoint to K-1. */
    static int slotsToAdd(long inLog, int k) {
        return (int) Math.floorMod(k - 1 - inLog, (long) k);
    }
}
