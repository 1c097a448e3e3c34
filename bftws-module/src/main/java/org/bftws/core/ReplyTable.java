package org.bftws.core;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The last-reply table: per client, the number of its last executed request and that request's reply. It makes
 * execution exactly-once (a retransmitted request gets the cached reply, never a second execution) and in order
 * within a client's sequence, and it is part of every checkpoint, so all correct executors decide alike.
 *
 * <p>A sequence that ended (its TerminateSequence executed) has no entry any more, only its identifier among the
 * ended ones: a request replayed on it later is refused, never executed again (docs/protocol.md, "Client sequences
 * end").
 */
final class ReplyTable {

    /** The last executed request of a client; {@code reply} is null until the adapter reported the result. */
    record Entry(long number, byte[] reply) {
    }

    /** What to do with request number k of a client, given the table. */
    enum Verdict { EXECUTE, DUPLICATE, OUT_OF_ORDER, ENDED }

    private final TreeMap<String, Entry> entries;
    /** Sequences that ended: nothing on them executes again. */
    private final TreeSet<String> ended;

    ReplyTable() {
        this(new TreeMap<>(), new TreeSet<>());
    }

    private ReplyTable(TreeMap<String, Entry> entries, TreeSet<String> ended) {
        this.entries = entries;
        this.ended = ended;
    }

    static ReplyTable of(Map<String, Entry> entries) {
        return of(entries, java.util.Set.of());
    }

    static ReplyTable of(Map<String, Entry> entries, java.util.Collection<String> ended) {
        return new ReplyTable(new TreeMap<>(entries), new TreeSet<>(ended));
    }

    long lastNumber(String client) {
        Entry e = entries.get(client);
        return e == null ? 0 : e.number();
    }

    Verdict verdict(RequestId id) {
        if (ended.contains(id.client())) {
            return Verdict.ENDED;
        }
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

    /** The client's sequence ended (its TerminateSequence executed): its entry goes, a record that it ended stays. */
    void end(String client) {
        entries.remove(client);
        ended.add(client);
    }

    boolean ended(String client) {
        return ended.contains(client);
    }

    /** The ended sequences, sorted, so every executor encodes them to the same bytes. */
    java.util.SortedSet<String> endedClients() {
        return java.util.Collections.unmodifiableSortedSet(ended);
    }

    ReplyTable copy() {
        return new ReplyTable(new TreeMap<>(entries), new TreeSet<>(ended));
    }

    /** Sorted by client, so every executor encodes the same table to the same bytes. */
    Map<String, Entry> entries() {
        return java.util.Collections.unmodifiableMap(entries);
    }

    int size() {
        return entries.size();
    }
}
