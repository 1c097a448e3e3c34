package org.bftws.rm;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Per-sequence in-order release (WS-RM InOrder delivery): items are added with their message number in any order
 * and come out of {@link #poll()} in message-number order within each sequence, each exactly once; across
 * sequences, in the order they became ready. Not thread-safe; callers lock.
 *
 * @param <T> what is queued (an Axis2 message in the glue, anything in tests)
 */
public final class SequenceOrder<T> {

    /** An item released for delivery. */
    public record Ready<T>(String sequenceId, long messageNumber, T item) {
    }

    private final Map<String, TreeMap<Long, T>> waiting = new HashMap<>();
    private final Map<String, Long> next = new HashMap<>();
    private final ArrayDeque<Ready<T>> ready = new ArrayDeque<>();

    /** Adds message {@code n} of {@code sequenceId}; a number already released or queued is ignored. */
    public void add(String sequenceId, long n, T item) {
        long expected = next.getOrDefault(sequenceId, 1L);
        if (n < expected) {
            return;
        }
        TreeMap<Long, T> buffer = waiting.computeIfAbsent(sequenceId, k -> new TreeMap<>());
        buffer.putIfAbsent(n, item);
        while (!buffer.isEmpty() && buffer.firstKey() == expected) {
            ready.add(new Ready<>(sequenceId, expected, buffer.pollFirstEntry().getValue()));
            expected++;
        }
        next.put(sequenceId, expected);
        if (buffer.isEmpty()) {
            waiting.remove(sequenceId);
        }
    }

    public Optional<Ready<T>> poll() {
        return Optional.ofNullable(ready.poll());
    }

    /** Drops everything about the sequence (it was terminated). */
    public void forget(String sequenceId) {
        waiting.remove(sequenceId);
        next.remove(sequenceId);
        ready.removeIf(r -> r.sequenceId().equals(sequenceId));
    }

    /** Items held back because an earlier message of their sequence is missing. */
    public int buffered() {
        return waiting.values().stream().mapToInt(Map::size).sum();
    }
}
