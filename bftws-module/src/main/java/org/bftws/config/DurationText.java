package org.bftws.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as operators write them in replicas.xml: {@code 250ms}, {@code 3s}, {@code 5m}, {@code 1h}. */
public final class DurationText {
    private static final Pattern FORM = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

    private DurationText() {
    }

    /** The duration; IllegalArgumentException for text the schema would refuse. */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration like 250ms, 3s, 5m or 1h");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    /** The shortest exact text for {@code d}, so that tools can write what the reader reads back. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) return ms / 3_600_000 + "h";
        if (ms % 60_000 == 0 && ms > 0) return ms / 60_000 + "m";
        if (ms % 1000 == 0 && ms > 0) return ms / 1000 + "s";
        return ms + "ms";
    }
}
