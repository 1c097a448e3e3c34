package org.bftws.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.bftws.voting.VotingCounters;
import org.bftws.bench.byzantine.ByzantineMode;

/**
 * The end of a testbed run with a Byzantine replica ({@code ./bftws testbed --byzantine MODE}): the correct replicas'
 * states, read through their standard input once they agree (a call returns on f+1 replies, so the last replica may
 * still be executing: bounded wait), and the counter in which they (or, for wrong replies, the client's Voter)
 * counted the lie. Both must hold for the run to pass.
 *
 * @param states the line {@code states: equal on K correct replicas (...)} or {@code states: DIFFER ...}
 * @param lie    the line {@code lie: counted ...} or {@code lie: NOT counted ...}
 * @param ok     whether the states are equal and the lie was counted
 */
record ByzantineCheck(String states, String lie, boolean ok) {

    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Duration ANSWER = Duration.ofSeconds(5);

    /** Checks the correct ones of {@code replicas} after a run with {@code mode}; {@code voting}: the client's. */
    static ByzantineCheck of(ByzantineMode mode, List<ReplicaProcess> replicas, VotingCounters voting)
            throws InterruptedException {
        String liar = "replica" + mode.testbedNode();
        List<ReplicaProcess> correct = replicas.stream().filter(r -> !r.name().equals(liar)).toList();
        String states = states(correct);
        // the lie's counter may still be rising on the last replica (a checkpoint vote in flight): bounded wait
        String lie = lie(mode, liar, correct, voting);
        for (long end = System.nanoTime() + SETTLE.toNanos(); !lie.startsWith("lie: counted") && System.nanoTime() < end;
             lie = lie(mode, liar, correct, voting)) {
            Thread.sleep(300);
        }
        return new ByzantineCheck(states, lie, states.startsWith("states: equal") && lie.startsWith("lie: counted"));
    }

    /** Each correct replica's echo state and last executed sequence number, until all agree or SETTLE runs out. */
    private static String states(List<ReplicaProcess> correct) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        Map<String, String> seen;
        do {
            seen = new LinkedHashMap<>();
            for (ReplicaProcess r : correct) {
                Optional<String> state = r.ask("state", ANSWER);
                Optional<String> executed = r.ask("measurements", ANSWER).map(m -> field(m, "executed"));
                seen.put(r.name(), state.orElse("no answer") + ", executed through " + executed.orElse("?"));
            }
            if (seen.values().stream().distinct().count() == 1 && !seen.values().iterator().next().contains("?")
                    && !seen.values().iterator().next().startsWith("no answer")) {
                return "states: equal on " + correct.size() + " correct replicas (echo state "
                        + seen.values().iterator().next() + ")";
            }
            Thread.sleep(300);
        } while (System.nanoTime() < deadline);
        List<String> each = new ArrayList<>();
        seen.forEach((name, s) -> each.add(name + " " + s));
        return "states: DIFFER on the correct replicas after " + SETTLE.toSeconds() + " s: " + String.join("; ", each);
    }

    /** The counter that shows the lie, read from the correct replicas' stats (or the client's Voter). */
    private static String lie(ByzantineMode mode, String liar, List<ReplicaProcess> correct, VotingCounters voting)
            throws InterruptedException {
        if (mode == ByzantineMode.WRONG_REPLIES) {
            long dissenting = voting == null ? 0 : voting.dissenting.get();
            return (dissenting > 0 ? "lie: counted" : "lie: NOT counted") + " by the client's Voter: " + dissenting
                    + " authentic replies outvoted (" + voting + ")";
        }
        String counter = switch (mode) {
            case EQUIVOCATE, SILENT_PRIMARY -> "views-installed";
            case REPLAY, BAD_CHECKPOINT -> "dropped-inputs-from-node-" + mode.testbedNode();
            case FLOOD -> "PBFT-messages-received-from-" + liar;
            case WRONG_REPLIES -> throw new IllegalStateException();
        };
        List<String> each = new ArrayList<>();
        boolean counted = true;
        for (ReplicaProcess r : correct) {
            String stats = r.stats(ANSWER).orElse("");
            long n = number(field(stats, counter));
            boolean here = n > 0;
            String note = "";
            if (mode == ByzantineMode.FLOOD) {
                // a flood stands out against what each correct peer sent the same replica
                long mostFromCorrect = correct.stream().filter(p -> p != r)
                        .mapToLong(p -> number(field(stats, "PBFT-messages-received-from-" + p.name()))).max()
                        .orElse(0);
                here = n > 2 * mostFromCorrect;
                note = " (at most " + mostFromCorrect + " from a correct replica)";
            }
            counted &= here;
            each.add(r.name() + " " + n + note);
        }
        return (counted ? "lie: counted" : "lie: NOT counted") + " in " + counter + ": " + String.join(", ", each);
    }

    private static String field(String answer, String name) {
        for (String word : answer.split(" ")) {
            if (word.startsWith(name + "=")) {
                return word.substring(name.length() + 1);
            }
        }
        return "?";
    }

    private static long number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
