package org.bftws.rm;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the replies to the last {@code depth} delivered requests of each sequence. A synchronous client sends
 * message n+1 only after it got the reply to n, so depth 1 (the paper's last-reply table) covers it; a client that
 * shares one sequence between k threads can have k requests in flight and needs depth k. Memory is at most
 * {@code depth} replies per live sequence (more for the few sequences told to {@link #keepDeeper keep more}: a caller
 * group's virtual sequences in multi-tier); terminated sequences are forgotten.
 */
public final class LastReplyCache implements ReplyCache {

    private record Entry(long messageNumber, CachedReply reply) {
    }

    private final Map<String, ArrayDeque<Entry>> last = new ConcurrentHashMap<>();
    /** Sequences that keep more than {@code depth} replies. */
    private final Map<String, Integer> deeper = new ConcurrentHashMap<>();
    private final int depth;

    public LastReplyCache(int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("reply cache depth must be at least 1, got " + depth);
        }
        this.depth = depth;
    }

    /** Sequence {@code sequenceId} keeps its last {@code replies} replies (if more than the cache's depth). */
    public void keepDeeper(String sequenceId, int replies) {
        deeper.merge(sequenceId, replies, Math::max);
    }

    @Override
    public void put(String sequenceId, long messageNumber, CachedReply reply) {
        ArrayDeque<Entry> q = last.computeIfAbsent(sequenceId, k -> new ArrayDeque<>());
        int keep = Math.max(depth, deeper.getOrDefault(sequenceId, depth));
        synchronized (q) {
            q.addLast(new Entry(messageNumber, reply));
            while (q.size() > keep) {
                q.removeFirst();
            }
        }
    }

    @Override
    public Optional<CachedReply> get(String sequenceId, long messageNumber) {
        ArrayDeque<Entry> q = last.get(sequenceId);
        if (q == null) {
            return Optional.empty();
        }
        synchronized (q) {
            return q.stream().filter(e -> e.messageNumber() == messageNumber).map(Entry::reply).findFirst();
        }
    }

    @Override
    public void forget(String sequenceId) {
        last.remove(sequenceId);
    }
}
