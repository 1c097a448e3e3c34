package org.bftws.bench;

import java.time.Duration;
import java.util.Locale;

import org.bftws.bench.hostile.HostileMode;

/**
 * {@code ./bftws testbed --hostile MODE} and its options: a second client party attacks the group while the
 * testbed's echo client calls in a loop ({@link HostileRun}).
 *
 * @param mode            what the hostile client sends
 * @param threads         its threads, each calling without pause (but for {@code rate})
 * @param timeout         its clientTimeout: how long one attempt to a replica waits for the answer
 * @param retransmit      its retransmissionInterval: the first retransmission's delay (then doubling)
 * @param retransmissions its maxRetransmissions
 * @param rate            at most this many hostile calls per second over all threads; 0: no limit
 * @param start           when the attack starts, after the honest client's measured phase began
 * @param duration        how long the attack lasts (the hostile JVM ends when it is over)
 * @param after           how long the honest client goes on calling after the attack
 */
record HostileOptions(HostileMode mode, int threads, Duration timeout, Duration retransmit, int retransmissions,
                      double rate, Duration start, Duration duration, Duration after) {

    /** How soon after the attack an honest call must be answered for the run to pass its check. */
    static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);

    /** The whole measured phase: before, during and after the attack. */
    Duration total() {
        return start.plus(duration).plus(after);
    }

    /** The {@code <protocol>} attributes of the hostile client's copy of replicas.xml: its pacing. */
    String protocolAttributes() {
        return "clientTimeout=\"" + timeout.toMillis() + "ms\" retransmissionInterval=\"" + retransmit.toMillis()
                + "ms\" maxRetransmissions=\"" + retransmissions + "\"";
    }

    /** One line for the report. */
    String describe() {
        return String.format(Locale.ROOT, "hostile client: %s (%s), %d thread%s, clientTimeout %d ms, retransmission "
                        + "after %d ms, at most %d retransmission%s, %s; attack from %d s to %d s of the %d s measured",
                mode.label(), mode.description(), threads, threads == 1 ? "" : "s", timeout.toMillis(),
                retransmit.toMillis(), retransmissions, retransmissions == 1 ? "" : "s",
                rate > 0 ? String.format(Locale.ROOT, "at most %.1f calls/s", rate) : "no rate limit",
                start.toSeconds(), start.plus(duration).toSeconds(), total().toSeconds());
    }
}
