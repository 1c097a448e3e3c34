package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The safety properties the process-level fault tests check on what replicas executed (their echo logs) against
 * what clients sent and accepted: every accepted append executed exactly once and at the position its reply
 * reported, nothing executed that no client sent, nothing executed twice, and every correct replica in the same
 * order-dependent state.
 */
final class ExecutionCheck {

    private ExecutionCheck() {
    }

    /**
     * Asserts that {@code log} (one replica's appended values, in order) holds every accepted call exactly once at
     * the position its reply named, and otherwise only values some call sent (a call the client gave up on may have
     * executed, once), with no value twice.
     */
    static void executedExactlyOnce(String replica, List<String> log, List<AppendClients.Call> calls) {
        Set<String> sent = new HashSet<>();
        calls.forEach(c -> sent.add(c.value()));
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < log.size(); i++) {
            Integer earlier = seen.put(log.get(i), i);
            if (earlier != null) {
                fail(replica + " executed " + log.get(i) + " twice (positions " + (earlier + 1) + " and " + (i + 1) + ")");
            }
            if (!sent.contains(log.get(i))) {
                fail(replica + " executed " + log.get(i) + ", which no client sent (position " + (i + 1) + ")");
            }
        }
        for (AppendClients.Call c : calls) {
            if (!c.ok()) {
                continue;
            }
            Integer at = seen.get(c.value());
            if (at == null) {
                fail(replica + " never executed " + c.value() + ", which the client accepted (reply count "
                        + c.count() + "); it executed " + log.size() + " appends");
            }
            assertEquals(c.count(), at + 1, replica + ": " + c.value() + " is at position " + (at + 1)
                    + " but its accepted reply said " + c.count());
        }
    }

    /** Asserts that the given replicas hold the same log and digest, and returns that state. */
    static EchoStateProbe.Reading identical(Map<String, EchoStateProbe.Reading> states) {
        assertTrue(!states.isEmpty(), "no replica to compare");
        EchoStateProbe.Reading first = null;
        String firstName = null;
        for (Map.Entry<String, EchoStateProbe.Reading> e : states.entrySet()) {
            if (first == null) {
                first = e.getValue();
                firstName = e.getKey();
                continue;
            }
            EchoStateProbe.Reading r = e.getValue();
            assertEquals(first.count(), r.count(), e.getKey() + " executed " + r.count() + " appends, " + firstName
                    + " " + first.count());
            assertEquals(first.entries(), r.entries(), e.getKey() + " executed other appends or in another order than "
                    + firstName);
            assertEquals(first.digest(), r.digest(), e.getKey() + "'s state digest differs from " + firstName + "'s");
        }
        return first;
    }
}
