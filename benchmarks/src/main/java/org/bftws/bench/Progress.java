package org.bftws.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a suite run on the console: a line when a point starts and when it ends, and while it measures one
 * line every {@value #EVERY_SECONDS} seconds with the requests completed so far. Called from client threads inside
 * the measured window, so it does almost nothing between those lines.
 */
final class Progress {

    private static final long EVERY_SECONDS = 10;

    private final PrintStream out;
    private final long suiteStart = System.nanoTime();
    private final int points;
    private int done;
    private volatile long measureStart;
    private volatile long lastPrint;
    private volatile int samples;

    Progress(PrintStream out, int points) {
        this.out = out;
        this.points = points;
    }

    void setup(BenchSetup setup, int index, int setups) {
        out.printf(Locale.ROOT, "%s setup %d of %d: %s (%d JVM%s)%n", clock(), index, setups, setup.label(),
                setup.nodes(), setup.nodes() == 1 ? "" : "s");
    }

    void pointStarts(BenchPoint point) {
        out.printf(Locale.ROOT, "%s   point %d of %d: %d element%s, %d client%s%n", clock(), done + 1, points,
                point.size(), point.size() == 1 ? "" : "s", point.clients(), point.clients() == 1 ? "" : "s");
    }

    void measuring(int samples) {
        this.samples = samples;
        measureStart = System.nanoTime();
        lastPrint = measureStart;
    }

    void completed(int count) {
        long now = System.nanoTime();
        if (now - lastPrint >= EVERY_SECONDS * 1_000_000_000L) {
            synchronized (this) {
                if (now - lastPrint >= EVERY_SECONDS * 1_000_000_000L) {
                    lastPrint = now;
                    out.printf(Locale.ROOT, "%s     %d of %d requests measured (%.0f s)%n", clock(), count, samples,
                            (now - measureStart) / 1e9);
                }
            }
        }
    }

    void pointEnded(PointResult r) {
        done++;
        if (r.ok()) {
            out.printf(Locale.ROOT, "%s     mean %.2f ms, p99 %.2f ms, %.1f req/s, projected %s req/s%s%n", clock(),
                    r.latency().meanMs(), r.latency().p99Ms(), r.clientRps(), ResultsCsv.number(r.projectedRps(), 0),
                    r.capped() ? " (time cap: " + r.samples() + " of " + r.requested() + " samples)" : "");
        } else {
            out.printf(Locale.ROOT, "%s     FAILED: %d ok, %d failed: %s%n", clock(), r.samples(), r.failed(),
                    r.note());
        }
    }

    /** Points that will not run (their setup failed): they count as done. */
    void skipped(int n) {
        done += n;
    }

    /** Elapsed time of the suite, {@code [m:ss]}. */
    String clock() {
        long s = (System.nanoTime() - suiteStart) / 1_000_000_000L;
        return String.format(Locale.ROOT, "[%d:%02d]", s / 60, s % 60);
    }
}
