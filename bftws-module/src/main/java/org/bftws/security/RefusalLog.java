package org.bftws.security;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of messages a node refuses (malformed, unauthenticated, outside WS-RM, too large): one line per refusal,
 * never a stack trace, and repeats summarised so that a peer sending garbage in a loop cannot fill the disk.
 * <p>
 * Per (peer, reason) the first refusal is logged with its full reason; after that a summary line is written when the
 * number refused reaches a power of two (2, 4, 8, ..., 1,024 ...) or when the last line for that pair is at least
 * {@link #SUMMARY_INTERVAL} old: {@code refused 1,024 messages from 10.0.0.5: unsigned (512 in the last 61 s)}. The
 * pairs are kept in a map of at most {@link #MAX_PAIRS} entries, the least recently refused dropped first (a pair
 * dropped and seen again starts over with a full line), so memory stays bounded however many peers there are.
 */
public final class RefusalLog {
    /** Logger of every refusal line: raise it to ERROR to silence refusals, the counters still count them. */
    public static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    public static final int MAX_PAIRS = 1024;
    public static final Duration SUMMARY_INTERVAL = Duration.ofSeconds(60);
    private static final String KEY = RefusalLog.class.getName();

    private final Logger log;
    private final int maxPairs;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final Map<String, Pair> pairs;

    public RefusalLog(Logger log, int maxPairs, Duration summaryInterval, LongSupplier nanoClock) {
        this.log = log;
        this.maxPairs = maxPairs;
        this.intervalNanos = summaryInterval.toNanos();
        this.nanoClock = nanoClock;
        this.pairs = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Pair> eldest) {
                return size() > RefusalLog.this.maxPairs;
            }
        };
    }

    /** The node's refusal log, one per Axis2 configuration context (so per node, also in tests that run several). */
    public static RefusalLog of(ConfigurationContext ctx) {
        synchronized (ctx) {
            Object log = ctx.getProperty(KEY);
            if (log == null) {
                log = new RefusalLog(LOG, MAX_PAIRS, SUMMARY_INTERVAL, System::nanoTime);
                ctx.setProperty(KEY, log);
            }
            return (RefusalLog) log;
        }
    }

    /**
     * Marks {@code fault} as one the module raised on purpose and has logged in one line: Axis2 types it as an
     * application fault, the kind its engine does not log again (AxisEngine logs every other fault at ERROR with
     * its stack trace, about 20 lines per message). Faults the module did not raise keep Axis2's full log.
     */
    public static <F extends AxisFault> F alreadyLogged(F fault) {
        fault.setFaultType(Constants.APPLICATION_FAULT);
        return fault;
    }

    /** The peer of an incoming message as the log names it: its remote address, or "an unknown peer". */
    public static String peer(MessageContext mc) {
        Object remote = mc == null ? null : mc.getProperty(MessageContext.REMOTE_ADDR);
        return remote == null ? "an unknown peer" : remote.toString();
    }

    /**
     * Records one refusal and logs it if it is the first of its (peer, reason) pair or due for a summary.
     *
     * @param peer    who sent it (remote address)
     * @param reason  a short, stable name of why (the key of the summary), e.g. "unsigned" or "wsrm:WSRMRequired"
     * @param detail  the full reason, logged with the first refusal of the pair
     * @param counter which counter counted it and its value now, e.g. "UNSIGNED refusals: 3"
     */
    public void refused(String peer, String reason, String detail, String counter) {
        Optional<String> line = lineFor(peer, reason, detail, counter);
        line.ifPresent(log::warn);
    }

    /**
     * Like {@link #refused}, at INFO, for a message refused for now only (a retry-later fault: its sender retransmits
     * it and it will be accepted), which is load, not an attack.
     */
    public void refusedForNow(String peer, String reason, String detail, String counter) {
        lineFor(peer, reason, detail, counter).ifPresent(log::info);
    }

    /** The line {@link #refused} writes for this refusal, if any (the decision, apart from the writing). */
    Optional<String> lineFor(String peer, String reason, String detail, String counter) {
        long now = nanoClock.getAsLong();
        long n;
        long since;
        long seconds;
        synchronized (pairs) {
            Pair p = pairs.computeIfAbsent(peer + '\u0000' + reason, k -> new Pair());
            n = ++p.count;
            boolean due = n == 1 || Long.bitCount(n) == 1 || now - p.lastLineNanos >= intervalNanos;
            if (!due) {
                return Optional.empty();
            }
            since = n - p.countAtLastLine;
            seconds = n == 1 ? 0 : Math.max(1, Duration.ofNanos(now - p.lastLineNanos).toSeconds());
            p.countAtLastLine = n;
            p.lastLineNanos = now;
        }
        if (n == 1) {
            // one line even when the reason quotes a parser's multi-line message (or a peer's text with line breaks)
            return Optional.of(("refused a message from " + peer + ": " + detail + " [" + counter + "]")
                    .replaceAll("\\s*[\\r\\n]+\\s*", " "));
        }
        return Optional.of(String.format(Locale.ROOT, "refused %,d messages from %s: %s (%,d in the last %,d s) [%s]",
                n, peer, reason, since, seconds, counter));
    }

    /** How many (peer, reason) pairs are remembered now (at most the bound given). */
    int pairs() {
        synchronized (pairs) {
            return pairs.size();
        }
    }

    private static final class Pair {
        long count;
        long countAtLastLine;
        long lastLineNanos;
    }
}
