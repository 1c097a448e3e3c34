package org.bftws.core;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The last-reply table: per client, the number of its last executed request and that request's reply. It makes
 * execution exactly-once (a retransmitted request gets the cached reply, never a second execution) and in order
 * within a client's sequence, and it is part of every checkpoint, so all correct executors decide alike.
 */
final class ReplyTable {

    /** The last executed request of a client; {@code reply} is null until the adapter reported the result. */
    record Entry(long number, byte[] reply) {
    }

    /** What to do with request number k of a client, given the table. */
    enum Verdict { EXECUTE, DUPLICATE, OUT_OF_ORDER }

    private final TreeMap<String, Entry> entries;

    ReplyTable() {
        this(new TreeMap<>());
    }

    private ReplyTable(TreeMap<String, Entry> entries) {
        this.entries = entries;
    }

    static ReplyTable of(Map<String, Entry> entries) {
        return new ReplyTable(new TreeMap<>(entries));
    }

    long lastNumber(String client) {
        Entry e = entries.get(client);
        return e == null ? 0 : e.number();
    }

    Verdict verdict(RequestId id) {
        long last = lastNumber(id.client());
        if (id.number() <= last) {
            return Verdict.DUPLICATE;
        }
        return id.number() == last + 1 ? Verdict.EXECUTE : Verdict.OUT_OF_ORDER;
    }

    /** The cached reply for exactly this request, if it was the client's last executed one and has finished. */
    Optional<byte[]> cachedReply(RequestId id) {
        Entry e = entries.get(id.client());
        return e != null && e.number() == id.number() && e.reply() != null ? Optional.of(e.reply()) : Optional.empty();
    }

    void executing(RequestId id) {
        entries.put(id.client(), new Entry(id.number(), null));
    }

    void executed(RequestId id, byte[] reply) {
        entries.put(id.client(), new Entry(id.number(), reply.clone()));
    }

    ReplyTable copy() {
        return new ReplyTable(new TreeMap<>(entries));
    }

    /** Sorted by client, so every executor encodes the same table to the same bytes. */
    Map<String, Entry> entries() {
        return java.util.Collections.unmodifiableMap(entries);
    }

    int size() {
        return entries.size();
    }
}
