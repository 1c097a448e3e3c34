package org.bftws.bench.nemesis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A nemesis history read back ({@link Operation}s, one JSON line each), with the checks that need no
 * linearizability checker: the outcomes counted, no acknowledged write lost from the final state, no failed call
 * whose value was seen anyway, and how long the group answered nothing. Every value a put or cas writes is unique in
 * a run, so a value tells which call wrote it.
 */
public final class History {

    private final List<Operation> operations;

    public History(List<Operation> operations) {
        this.operations = List.copyOf(operations);
    }

    /** Reads a history file; an error names the line that is not an operation. */
    public static History read(Path file) throws IOException {
        List<Operation> ops = new ArrayList<>();
        int n = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            n++;
            if (line.isBlank()) {
                continue;
            }
            try {
                ops.add(Operation.parse(line));
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ":" + n + ": " + e.getMessage(), e);
            }
        }
        return new History(ops);
    }

    public List<Operation> operations() {
        return operations;
    }

    public long count(Operation.Outcome outcome) {
        return operations.stream().filter(o -> o.outcome() == outcome).count();
    }

    /**
     * The acknowledged writes the final state lost: for each key, the value it ends with (absent: null) must have
     * been written by a call that did not complete before the last acknowledged write to that key began; when it
     * was written by an earlier one (or the key has no value), that last acknowledged write is lost. One line each.
     */
    public List<String> lostWrites(Map<String, Long> finalState) {
        Map<Long, Operation> writers = new HashMap<>();
        Map<String, Operation> lastAcknowledged = new HashMap<>();
        for (Operation o : operations) {
            if (o.mayWrite() && o.outcome() != Operation.Outcome.FAILED) {
                writers.put(o.value(), o);
            }
            if (o.mayWrite() && o.outcome() == Operation.Outcome.OK) {
                lastAcknowledged.merge(o.key(), o, (a, b) -> a.ret() >= b.ret() ? a : b);
            }
        }
        List<String> lost = new ArrayList<>();
        List<Operation> lasts = lastAcknowledged.values().stream().sorted(Comparator.comparing(Operation::key))
                .toList();
        for (Operation last : lasts) {
            Long value = finalState.get(last.key());
            Operation writer = value == null ? null : writers.get(value);
            boolean earlier = writer == null || writer.ret() != null && writer.ret() < last.call();
            if (earlier) {
                lost.add(last.key() + " ends with " + value + (writer == null ? ", which no call wrote" : ", written"
                        + " before the acknowledged " + last.op() + " of " + last.value() + " began"));
            }
        }
        return lost;
    }

    /** Calls reported failed (certainly without effect) whose value a reply or the final state shows anyway. */
    public List<String> failedButSeen(Map<String, Long> finalState) {
        Map<Long, Operation> failed = new HashMap<>();
        for (Operation o : operations) {
            if (o.outcome() == Operation.Outcome.FAILED && o.value() != null) {
                failed.put(o.value(), o);
            }
        }
        List<String> seen = new ArrayList<>();
        for (Operation o : operations) {
            if (o.outcome() == Operation.Outcome.OK && o.found() && failed.containsKey(o.result())) {
                seen.add("the failed " + failed.get(o.result()).op() + " of " + o.result() + " was seen by a "
                        + o.op() + " of " + o.key());
            }
        }
        finalState.forEach((k, v) -> {
            if (v != null && failed.containsKey(v)) {
                seen.add("the failed " + failed.get(v).op() + " of " + v + " is in the final state of " + k);
            }
        });
        return seen;
    }

    /**
     * The longest time, in ns, between {@code from} and {@code to} (the clients' own clock) in which no operation
     * completed ok.
     */
    public long longestUnavailableNanos(long from, long to) {
        List<Long> completions = operations.stream().filter(o -> o.outcome() == Operation.Outcome.OK)
                .map(Operation::ret).filter(t -> t >= from && t <= to).sorted().toList();
        long longest = 0;
        long previous = from;
        for (long t : completions) {
            longest = Math.max(longest, t - previous);
            previous = t;
        }
        return Math.max(longest, to - previous);
    }

    /** How long after {@code nanos} the first operation completed ok after it; -1 when none did. */
    public long servingAgainAfter(long nanos) {
        return operations.stream().filter(o -> o.outcome() == Operation.Outcome.OK && o.ret() >= nanos)
                .mapToLong(o -> o.ret() - nanos).min().orElse(-1);
    }
}
