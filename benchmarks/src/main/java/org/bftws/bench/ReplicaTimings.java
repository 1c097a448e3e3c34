package org.bftws.bench;

import java.util.Locale;
import java.util.Map;

/**
 * One replica's answer to {@code measurements} ({@link org.bftws.metrics.Measurements#describe()}), read back:
 * its position and each timing series as count, mean, median, max and last, in milliseconds.
 */
record ReplicaTimings(int view, long stable, long executed, Map<String, String> fields) {

    /** One series: how many samples, and mean, median, max and last in milliseconds (NaN when there are none). */
    record Series(long count, double meanMs, double p50Ms, double maxMs, double lastMs) {
        static final Series NONE = new Series(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

        static Series parse(String value) {
            if (value == null) {
                return NONE;
            }
            String[] p = value.split("/");
            if (p.length != 5 || p[0].equals("0")) {
                return NONE;
            }
            return new Series(Long.parseLong(p[0]), Double.parseDouble(p[1]), Double.parseDouble(p[2]),
                    Double.parseDouble(p[3]), Double.parseDouble(p[4]));
        }
    }

    static ReplicaTimings of(Map<String, String> f) {
        return new ReplicaTimings(Integer.parseInt(f.getOrDefault("view", "0")),
                Long.parseLong(f.getOrDefault("stable", "0")), Long.parseLong(f.getOrDefault("executed", "0")), f);
    }

    /** Series {@code label}: checkpoint, until-stable, transfer, new-view, view-change. */
    Series series(String label) {
        return Series.parse(fields.get(label));
    }

    long checkpointBytes() {
        return Long.parseLong(fields.getOrDefault("checkpoint-bytes", "-1"));
    }

    long transferBytes() {
        return Long.parseLong(fields.getOrDefault("transfer-bytes", "-1"));
    }

    /** Milliseconds with one decimal, or "-" when there is no value. */
    static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    /** A byte count as B, KB or MB. */
    static String bytes(long b) {
        if (b < 0) {
            return "-";
        }
        if (b < 1024) {
            return b + " B";
        }
        return b < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KB", b / 1024.0)
                : String.format(Locale.ROOT, "%.2f MB", b / (1024.0 * 1024.0));
    }
}
