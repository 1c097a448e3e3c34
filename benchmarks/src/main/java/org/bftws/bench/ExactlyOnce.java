package org.bftws.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a replica's echo log says about the appends clients sent: every append a client got a decided reply for is in
 * the log once, at the position its reply reported; no value twice; no value that no client sent (a call the client
 * gave up on may have executed, once). The soak and overload runs check every replica's log with it.
 */
final class ExactlyOnce {

    /** How many problems of each kind a report names (a broken run could otherwise print thousands). */
    private static final int NAMED = 5;

    /**
     * @param duplicated values in the log more than once
     * @param lost       accepted values missing from the log
     * @param misplaced  accepted values at another position than their reply reported
     * @param unknown    values in the log no client sent
     * @param examples   the first few problems, in words
     */
    record Result(int duplicated, int lost, int misplaced, int unknown, List<String> examples) {

        boolean holds() {
            return duplicated == 0 && lost == 0 && misplaced == 0 && unknown == 0;
        }

        /** {@code exactly once}, or what broke it: {@code 2 duplicated, 1 lost}. */
        String summary() {
            if (holds()) {
                return "exactly once";
            }
            List<String> parts = new ArrayList<>();
            if (duplicated > 0) {
                parts.add(duplicated + " duplicated");
            }
            if (lost > 0) {
                parts.add(lost + " lost");
            }
            if (misplaced > 0) {
                parts.add(misplaced + " misplaced");
            }
            if (unknown > 0) {
                parts.add(unknown + " unknown");
            }
            return String.join(", ", parts);
        }
    }

    private ExactlyOnce() {
    }

    /** Checks {@code log} (one replica's appended values, in order) against every call clients made. */
    static Result check(List<String> log, List<AppendClients.Call> calls) {
        Set<String> sent = new HashSet<>();
        calls.forEach(c -> sent.add(c.value()));
        Map<String, Integer> position = new HashMap<>();
        List<String> examples = new ArrayList<>();
        int duplicated = 0;
        int unknown = 0;
        for (int i = 0; i < log.size(); i++) {
            String v = log.get(i);
            Integer earlier = position.putIfAbsent(v, i + 1);
            if (earlier != null) {
                duplicated++;
                example(examples, v + " executed twice (positions " + earlier + " and " + (i + 1) + ")");
            }
            if (!sent.contains(v)) {
                unknown++;
                example(examples, v + " executed at " + (i + 1) + " but no client sent it");
            }
        }
        int lost = 0;
        int misplaced = 0;
        for (AppendClients.Call c : calls) {
            if (!c.ok()) {
                continue;
            }
            Integer at = position.get(c.value());
            if (at == null) {
                lost++;
                example(examples, c.value() + " accepted (reply count " + c.count() + ") but not executed");
            } else if (at != c.count()) {
                misplaced++;
                example(examples, c.value() + " at position " + at + " but its accepted reply said " + c.count());
            }
        }
        return new Result(duplicated, lost, misplaced, unknown, List.copyOf(examples));
    }

    private static void example(List<String> examples, String problem) {
        if (examples.size() < NAMED * 4) {
            examples.add(problem);
        }
    }
}
