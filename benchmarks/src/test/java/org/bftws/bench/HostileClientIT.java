package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 34: a client whose request authenticators fail must neither force a view change, nor starve the honest
 * clients, nor get a request past the replicas; issue 40: tested so that each of those can fail. One run of
 * {@code ./bftws testbed --hostile primary-only,invalid,valid} as the launcher runs it, shared by every case: four
 * {@code mac} replica JVMs, four honest echo client threads calling in a loop (300 warm-up calls, then 90 s), and
 * three attacks by the hostile client party (its own keys, 16 threads, the fast pacing: clientTimeout 300 ms, one
 * retransmission after 100 ms), each for 20 s followed by 5 s of honest calls only, the first 15 s into the
 * measured phase:
 * <ol>
 * <li>{@code primary-only}: authenticators valid at the view-0 primary only (WebBFT's MAC attack);</li>
 * <li>{@code invalid}: authenticators valid nowhere;</li>
 * <li>{@code valid}, the control: the same threads and pacing with their requests left valid, which the replicas
 * execute like the honest ones.</li>
 * </ol>
 * The cases assert: the run's own check passed and its exit status says so (no view change during a spoilt attack, an
 * honest call answered within 5 s after each, the refusals account for the requests); the honest calls per second
 * during each spoilt attack are at least {@link #SHARE} of those during the control; every replica whose
 * authenticator entry the attack spoils counted each spoilt request as refused (its security refusals, plus the
 * connections it closed before reading a request, which is what a loaded machine makes of some of the attack), and
 * no more than the requests and retransmissions sent explain, while a replica whose entry was valid, and every replica
 * under the control, refused none (but what the attack before had on its way when it stopped); and that the replicas
 * executed none of the spoilt requests, but the control's.
 *
 * <p>The windows. Before the fix of issue 34 a loaded 2-core machine showed the views change 6 to 25 s into such an
 * attack on a group that had served 15-20 s at full speed (the replicas' timers stall with them), while attacks of
 * 20 to 30 s that started 3 s into the run mostly ended with the group still in view 0. Here {@code primary-only}
 * starts 15 s into the measured phase, after the warm-up (and the wait for the hostile JVMs to be set up), so on a
 * group that has served about as long as then, and {@code invalid} 5 s after it: 40 s of spoilt requests in two
 * attacks of 20 s, which cover that regression's 6 to 20 s, most of what was seen. The two
 * cases of before each ran their own testbed (51 s measured, an attack of 30 s, about 90 s each); the one run here,
 * the control included, measures 90 s and starts its replicas and keys once.
 *
 * <p>The order. The spoilt attacks come first, while the group is in view 0 ({@code primary-only} keeps the entry of
 * replica0, the view-0 primary, valid) and before the control's load of valid requests, which on a loaded machine can
 * make the replicas suspect a correct primary (the run reports that for the control, and does not fail it).
 * {@code primary-only}'s requests still on their way when it stops can only be refused in {@code invalid}'s window,
 * where every replica refuses them; the control comes last so that none of its valid requests, executed late, counts
 * in a spoilt attack's window. The control also runs in warmer JVMs than the attacks did, which makes it the harder
 * measure. The figures are printed to the test's output.
 */
class HostileClientIT {

    /** The attacks, in the order they come. */
    private static final List<String> MODES = List.of("primary-only", "invalid", "valid");
    private static final int THREADS = 16;
    private static final int CLIENTS = 4;
    /**
     * The least share of the control's honest calls per second that must go on during a spoilt attack. A request
     * that fails authentication costs a replica a MAC check and a constant answer, less than a valid one (ordering,
     * execution, a signed reply), so the honest clients should get at least as much during a spoilt attack as during
     * the control: on an idle 2-core machine {@code invalid} left them 86 calls/s where the control left 54
     * (docs/byzantine-testing.md); on one shared with other builds, in five runs, {@code primary-only} and
     * {@code invalid} left them 0.99 to 8 times what the control did (the control came last in three of them, in
     * JVMs warmed up longer). Half leaves room for what a shared machine does to one 20 s window against another,
     * while a group the attack starves, or that stops for a view change, falls far below it.
     */
    private static final double SHARE = 0.5;
    /**
     * The fewest spoilt requests an attack must have sent for its refusals to say anything: five per thread, so that
     * the one request per thread that may be on its way when the attack stops is a fifth of them at most; and the
     * fewest requests of the control the replicas must have executed for it to be one. An idle 2-core machine sends
     * about 110 hostile calls a second; one shared with other builds sent 7 to 10, 150 to 190 in 20 s.
     */
    private static final int LEAST_SPOILT = 5 * THREADS;
    private static final Pattern DURING = Pattern.compile("honest calls/s before ([0-9.]+) / during ([0-9.]+) / ");

    private static int exitStatus;
    private static List<String> out;

    @BeforeAll
    static void attackOnceInEveryMode() throws Exception {
        try (Jvm testbed = Jvm.start(Testbed.class, List.of("--security", "mac", "--clients",
                Integer.toString(CLIENTS), "--warmup", "300", "--hostile", String.join(",", MODES),
                "--hostile-threads", Integer.toString(THREADS),
                "--hostile-start", "15", "--hostile-duration", "20", "--hostile-after", "5",
                "--home", SharedHome.withKeys().toString()))) {
            exitStatus = testbed.awaitExit(Duration.ofSeconds(360));
            out = testbed.lines();
        }
        out.stream().filter(l -> l.startsWith("  ") && !l.trim().startsWith("replica") || l.startsWith("hostile")
                || l.startsWith("replicas ready") || l.startsWith("echo:"))
                .forEach(l -> System.out.println("--hostile: " + l));
    }

    @Test
    void theRunPassesItsOwnCheckAndItsExitStatusSaysSo() {
        String check = line("hostile check: ");
        assertTrue(check.startsWith("hostile check: ok"), check + "\n" + figures());
        assertEquals(0, exitStatus, "the run's exit status; its last lines:\n" + String.join("\n",
                out.subList(Math.max(0, out.size() - 15), out.size())));
    }

    @ParameterizedTest(name = "--hostile {0}")
    @ValueSource(strings = {"primary-only", "invalid"})
    void honestCallsGoOnDuringTheAttackAtLeastHalfAsFastAsDuringTheControl(String mode) {
        double control = during("valid");
        double attack = during(mode);
        assertTrue(control > 0, "no honest call was answered during the control: nothing to compare with\n"
                + figures());
        assertTrue(attack >= SHARE * control, String.format(Locale.ROOT, "during %s %.1f honest calls/s, less than "
                + "%.0f%% of the %.1f/s during the control (valid)%n%s", mode, attack, 100 * SHARE, control,
                figures()));
    }

    @ParameterizedTest(name = "--hostile {0}")
    @ValueSource(strings = {"valid", "primary-only", "invalid"})
    void everyHostileRequestIsRefusedAndCountedWhereItsMacIsSpoiltAndNowhereElse(String mode) {
        String line = line("hostile refusals " + mode + ": ");
        Map<String, String> f = fields(line);
        long spoilt = Long.parseLong(f.get("spoilt"));
        long retransmissions = Long.parseLong(f.get("retransmissions"));
        String[] executed = f.get("executed").split("\\.\\.");
        long leastExecuted = Long.parseLong(executed[0]);
        if (mode.equals("valid")) {
            assertEquals(0, spoilt, line);
            assertTrue(leastExecuted >= LEAST_SPOILT, "the replicas executed at least " + leastExecuted + " of the "
                    + "control's requests, fewer than " + LEAST_SPOILT + ": it hardly loaded the group\n" + figures());
        } else {
            assertTrue(spoilt >= LEAST_SPOILT, "the attack spoilt " + spoilt + " requests, fewer than "
                    + LEAST_SPOILT + ": too few to say whether they were refused\n" + figures());
            assertEquals(0, leastExecuted, "the replicas executed at least " + leastExecuted + " requests besides "
                    + "the honest ones during the attack: spoilt requests got through\n" + line);
        }
        for (int i = 0; i < 4; i++) {
            String name = "replica" + i;
            String[] counted = f.get(name).split("\\+");
            long refused = Long.parseLong(counted[0]);
            long closed = Long.parseLong(counted[1]);
            boolean refuses = mode.equals("invalid") || mode.equals("primary-only") && i != 0;
            if (!refuses) {
                // the control comes after invalid, whose requests on their way when it stopped (one per thread at
                // most) may be refused in the control's window; primary-only comes first
                long late = mode.equals("valid") ? THREADS : 0;
                assertTrue(refused <= late, name + " refused " + refused + " requests whose authenticator entry for "
                        + "it was valid (" + late + " of the attack before may have been on their way): " + line);
                continue;
            }
            assertTrue(refused + closed >= spoilt - THREADS, name + " counted " + refused + " security refusals and "
                    + closed + " connections closed unread for " + spoilt + " spoilt requests (" + THREADS
                    + " may be on their way at the end): some got past it uncounted\n" + line);
            assertTrue(refused <= spoilt + retransmissions + THREADS, name + " counted " + refused + " security "
                    + "refusals, more than " + spoilt + " spoilt requests and " + retransmissions + " retransmissions "
                    + "explain\n" + line);
        }
    }

    private static String line(String prefix) {
        return out.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseGet(() -> fail("the run printed no '"
                + prefix.trim() + "' line; its output:\n" + String.join("\n", out)));
    }

    /** Honest calls per second during the attack of {@code mode}, from its summary line. */
    private static double during(String mode) {
        String summary = line("hostile summary " + mode + ": ");
        Matcher m = DURING.matcher(summary);
        assertTrue(m.find(), summary);
        return Double.parseDouble(m.group(2));
    }

    /** The {@code name=value} words of a line. */
    private static Map<String, String> fields(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String word : line.split("[ ;]")) {
            int eq = word.indexOf('=');
            if (eq > 0) {
                m.put(word.substring(0, eq), word.substring(eq + 1));
            }
        }
        return m;
    }

    /** What the run said about the attacks, for a failure's message. */
    private static String figures() {
        return String.join("\n", out.stream().filter(l -> l.startsWith("  ") && !l.trim().startsWith("replica")
                || l.startsWith("hostile")).toList());
    }
}
