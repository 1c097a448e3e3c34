package org.bftws.bench;

import java.io.PrintStream;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Failover as a client sees it: one client calls without pause, the primary is killed (SIGKILL), and the time from
 * the kill to the client's first reply vouched for by a later view is taken; the target is 1.5 s with a 1 s view
 * change timeout. Repeated: the killed replica restarts from its data directory between kills, so every kill hits
 * the primary of a group of four.
 */
final class FailoverFigures {

    static final double TARGET_MS = 1_500;

    /**
     * One kill of the primary: prepared slots in the log at the kill, the new primary's time from suspecting to
     * sending the new-view, the mean time of the others until they entered the new view, the client's time from the
     * kill to its first reply in a later view (-1 when none came), when the call that got that reply started
     * (ms after the kill, negative: before it), and the kill's wall-clock time (to read the replicas' logs by).
     */
    record Failover(int killed, int viewBefore, int viewAfter, long slots, double newViewMs, double viewChangeMs,
                    double clientMs, double callStartMs, LocalTime killedAt) {
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    private FailoverFigures() {
    }

    static void run(MeasureOptions options, PrintStream out) throws Exception {
        int kills = options.quick() ? 2 : 5;
        out.println("failover (client side): the primary killed " + kills + " times under one client's load, view "
                + "change timeout 1 s, checkpoint every 50; target: first reply in the new view within "
                + (int) TARGET_MS + " ms");
        out.println("| kill | killed at | primary | view before -> after | slots above the stable checkpoint | client:"
                + " kill to first reply in the new view, ms | that call started, ms after the kill | new primary:"
                + " suspect to new-view sent, ms | survivors: suspect to view entered, ms |");
        out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        List<Double> client = new ArrayList<>();
        try (MeasureGroup g = MeasureGroup.start(options, "failover", MeasureGroup.protocol(50, "1s"), true, 0)) {
            g.load("f-warm", 30, 600);
            for (int n = 1; n <= kills; n++) {
                Failover f = killPrimary(g, "f" + n, 60);
                client.add(f.clientMs());
                out.printf(Locale.ROOT, "| %d | %s | %s | %d -> %d | %d | %s | %s | %s | %s |%n", n,
                        CLOCK.format(f.killedAt()), ReplicaGroup.name(f.killed()), f.viewBefore(), f.viewAfter(),
                        f.slots(),
                        f.clientMs() < 0 ? "none within 60 s" : String.format(Locale.ROOT, "%.0f", f.clientMs()),
                        f.clientMs() < 0 ? "-" : String.format(Locale.ROOT, "%.0f", f.callStartMs()),
                        ReplicaTimings.ms(f.newViewMs()), ReplicaTimings.ms(f.viewChangeMs()));
                out.flush();
                g.group().restart(f.killed(), true);
                g.load("f" + n + "r", 20, 600);
            }
        }
        List<Double> ok = client.stream().filter(v -> v >= 0).sorted().toList();
        if (ok.isEmpty()) {
            out.println("failover: no reply in a new view after any kill");
            return;
        }
        out.printf(Locale.ROOT, "failover: median %.0f ms, worst %.0f ms over %d kills (%d without a reply); target %d"
                + " ms: %s%n", median(ok), ok.get(ok.size() - 1), client.size(), client.size() - ok.size(),
                (int) TARGET_MS, ok.size() == client.size() && ok.get(ok.size() - 1) <= TARGET_MS ? "met" : "missed");
    }

    /** The median of sorted values: the mean of the middle two when their number is even. */
    static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Kills the primary while one client keeps calling, waits until the client got a reply from a later view (at
     * most {@code seconds}), stops the client and reads the survivors' timings.
     */
    static Failover killPrimary(MeasureGroup g, String prefix, int seconds) throws InterruptedException {
        ReplicaGroup group = g.group();
        int viewBefore = group.view();
        int primary = viewBefore % ReplicaGroup.SIZE;
        ReplicaTimings atKill = g.timings(primary);
        List<ReplicaTimings> before = new ArrayList<>();
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            before.add(group.alive(i) ? g.timings(i) : null);
        }
        AppendClients clients = g.clients();
        int callsBefore = clients.calls().size();
        clients.start(prefix, 1);
        clients.awaitCalls(callsBefore + 1, seconds * 1000L); // the client is calling
        LocalTime killedAtWall = LocalTime.now();
        long killedAt = System.nanoTime();
        group.crash(primary);
        double clientMs = -1;
        double callStartMs = Double.NaN;
        long deadline = killedAt + seconds * 1_000_000_000L;
        while (clientMs < 0 && System.nanoTime() < deadline) {
            for (AppendClients.Call c : clients.calls()) {
                if (c.ok() && c.view() > viewBefore && c.endNanos() > killedAt) {
                    clientMs = (c.endNanos() - killedAt) / 1e6;
                    callStartMs = (c.startNanos() - killedAt) / 1e6;
                    break;
                }
            }
            Thread.sleep(20);
        }
        clients.stop();
        Thread.sleep(500);
        double newView = Double.NaN;
        double viewChange = 0;
        int backups = 0;
        int viewAfter = viewBefore;
        for (int i = 0; i < ReplicaGroup.SIZE; i++) {
            if (i == primary || !group.alive(i) || before.get(i) == null) {
                continue;
            }
            ReplicaTimings t = g.timings(i);
            viewAfter = Math.max(viewAfter, t.view());
            ReplicaTimings.Series nv = t.series("new-view");
            if (nv.count() > before.get(i).series("new-view").count()) {
                newView = nv.lastMs(); // this replica sent the new-view that followed the kill
            }
            ReplicaTimings.Series vc = t.series("view-change");
            if (vc.count() > before.get(i).series("view-change").count()) {
                viewChange += vc.lastMs();
                backups++;
            }
        }
        return new Failover(primary, viewBefore, viewAfter, atKill.executed() - atKill.stable(), newView,
                backups == 0 ? Double.NaN : viewChange / backups, clientMs, callStartMs, killedAtWall);
    }
}
