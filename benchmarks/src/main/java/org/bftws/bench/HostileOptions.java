package org.bftws.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import org.bftws.bench.hostile.HostileMode;

/**
 * {@code ./bftws testbed --hostile MODE[,MODE..]} and its options: a second client party attacks the group while the
 * testbed's echo client calls in a loop ({@link HostileRun}), once per mode, one attack after another.
 *
 * @param modes           what the hostile client sends, attack by attack (at least one, none twice)
 * @param threads         its threads, each calling without pause (but for {@code rate})
 * @param timeout         its clientTimeout: how long one attempt to a replica waits for the answer
 * @param retransmit      its retransmissionInterval: the first retransmission's delay (then doubling)
 * @param retransmissions its maxRetransmissions
 * @param rate            at most this many hostile calls per second over all threads; 0: no limit
 * @param start           when the first attack starts, after the honest client's measured phase began
 * @param duration        how long each attack lasts (its hostile JVM ends when it is over)
 * @param after           how long the honest client calls after each attack before the next one starts, or the
 *                        measured phase ends
 */
record HostileOptions(List<HostileMode> modes, int threads, Duration timeout, Duration retransmit,
                      int retransmissions, double rate, Duration start, Duration duration, Duration after) {

    /** How soon after the attack an honest call must be answered for the run to pass its check. */
    static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);

    HostileOptions {
        modes = List.copyOf(modes);
        if (modes.isEmpty() || modes.stream().distinct().count() != modes.size()) {
            throw new IllegalArgumentException("one mode or more, none twice: " + modes);
        }
    }

    /** The whole measured phase: before the first attack, then each attack and the time after it. */
    Duration total() {
        return start.plus(duration.plus(after).multipliedBy(modes.size()));
    }

    /** When attack {@code i} (0: the first) is planned to start, from the start of the measured phase. */
    Duration attackStart(int i) {
        return start.plus(duration.plus(after).multipliedBy(i));
    }

    /** The modes' labels, comma-separated, as the option takes them. */
    String labels() {
        return modes.stream().map(HostileMode::label).collect(Collectors.joining(","));
    }

    /** The {@code <protocol>} attributes of the hostile client's copy of replicas.xml: its pacing. */
    String protocolAttributes() {
        return "clientTimeout=\"" + timeout.toMillis() + "ms\" retransmissionInterval=\"" + retransmit.toMillis()
                + "ms\" maxRetransmissions=\"" + retransmissions + "\"";
    }

    /** One line for the report. */
    String describe() {
        String what = modes.stream().map(m -> m.label() + " (" + m.description() + ")")
                .collect(Collectors.joining(", then "));
        StringBuilder when = new StringBuilder();
        for (int i = 0; i < modes.size(); i++) {
            when.append(i == 0 ? "" : ", ").append(attackStart(i).toSeconds()).append(" s to ")
                    .append(attackStart(i).plus(duration).toSeconds()).append(" s");
        }
        return String.format(Locale.ROOT, "hostile client: %s, %d thread%s, clientTimeout %d ms, retransmission "
                        + "after %d ms, at most %d retransmission%s, %s; %s from %s of the %d s measured", what,
                threads, threads == 1 ? "" : "s", timeout.toMillis(), retransmit.toMillis(), retransmissions,
                retransmissions == 1 ? "" : "s",
                rate > 0 ? String.format(Locale.ROOT, "at most %.1f calls/s", rate) : "no rate limit",
                modes.size() == 1 ? "attack" : "attacks, each by a JVM of its own,", when, total().toSeconds());
    }
}
