package org.bftws.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The last-reply table: per client, the number of its last executed request and that request's reply. It makes
 * execution exactly-once (a retransmitted request gets the cached reply, never a second execution) and in order
 * within a client's sequence, and it is part of every checkpoint, so all correct executors decide alike.
 *
 * <p>A sequence that ended (its TerminateSequence executed) has no entry any more, only its identifier among the
 * ended ones: a request replayed on it later is refused, never executed again (docs/protocol.md, "Client sequences
 * end"). With an idle limit, the table also keeps the agreed time (the running maximum of the executed batches'
 * times): an entry idle for longer than the limit expires, an ended record goes once its sequence's creation time
 * is older than the limit, and a sequence without a live entry is refused unless its creation time lies within the
 * limit of the agreed time, so neither an expired nor an ended sequence can come back (docs/protocol.md, "Expiry").
 */
final class ReplyTable {

    /**
     * The last executed request of a client; {@code reply} is null until the adapter reported the result;
     * {@code lastActive} the agreed time of that execution or the sequence's creation time if later
     * ({@link Long#MAX_VALUE} for a sequence without a creation time, which never expires).
     */
    record Entry(long number, byte[] reply, long lastActive) {
    }

    /** What to do with request number k of a client, given the table. */
    enum Verdict { EXECUTE, DUPLICATE, OUT_OF_ORDER, ENDED, EXPIRED, NOT_YET_VALID }

    private final TreeMap<String, Entry> entries;
    private final SequenceAges entryAges = new SequenceAges();
    /** Sequences that ended, with their creation times: nothing on them executes again. */
    private final TreeMap<String, Long> ended;
    private final SequenceAges endedAges = new SequenceAges();
    /** The running maximum of the executed batches' times. */
    private long agreedTime;

    ReplyTable() {
        this(new TreeMap<>(), new TreeMap<>(), 0);
    }

    private ReplyTable(TreeMap<String, Entry> entries, TreeMap<String, Long> ended, long agreedTime) {
        this.entries = entries;
        this.ended = ended;
        this.agreedTime = agreedTime;
        entries.forEach((client, e) -> entryAges.put(client, e.lastActive()));
        ended.forEach(endedAges::put);
    }

    static ReplyTable of(Map<String, Entry> entries) {
        return of(entries, Map.of(), 0);
    }

    /** @param ended the ended sequences with their creation times ({@link Long#MAX_VALUE}: kept for ever) */
    static ReplyTable of(Map<String, Entry> entries, Map<String, Long> ended, long agreedTime) {
        return new ReplyTable(new TreeMap<>(entries), new TreeMap<>(ended), agreedTime);
    }

    long lastNumber(String client) {
        Entry e = entries.get(client);
        return e == null ? 0 : e.number();
    }

    long agreedTime() {
        return agreedTime;
    }

    /**
     * @param createdAt the sequence's creation time ({@link SequenceRules#createdAt})
     * @param idleLimit the idle limit in ms, 0 for none
     */
    Verdict verdict(RequestId id, long createdAt, long idleLimit) {
        if (ended.containsKey(id.client())) {
            return Verdict.ENDED;
        }
        Entry e = entries.get(id.client());
        if (e == null) {
            Verdict v = admission(createdAt, idleLimit, agreedTime);
            if (v != null) {
                return v;
            }
        }
        long last = e == null ? 0 : e.number();
        if (id.number() <= last) {
            return Verdict.DUPLICATE;
        }
        return id.number() == last + 1 ? Verdict.EXECUTE : Verdict.OUT_OF_ORDER;
    }

    /**
     * For a sequence without a live entry: refused ({@code EXPIRED}) when it was created more than the idle limit
     * before the agreed time (it expired, or its ended record was dropped, or it is that old and was never used),
     * {@code NOT_YET_VALID} when created more than the limit after it (a made-up creation time would otherwise keep
     * its entry for ever); null when it may start. Shared with the agreement side ({@link RequestStore}).
     */
    static Verdict admission(long createdAt, long idleLimit, long agreedTime) {
        if (idleLimit <= 0 || createdAt == SequenceRules.NO_CREATION_TIME) {
            return null;
        }
        if (createdAt < agreedTime - idleLimit) {
            return Verdict.EXPIRED;
        }
        return createdAt - idleLimit > agreedTime ? Verdict.NOT_YET_VALID : null;
    }

    /** The time up to which a sequence created at {@code createdAt} counts as active after an execution now. */
    static long activeUntil(long agreedTime, long createdAt) {
        return createdAt == SequenceRules.NO_CREATION_TIME ? Long.MAX_VALUE : Math.max(agreedTime, createdAt);
    }

    /**
     * A batch with time {@code time} executes: the agreed time moves up to it and, with an idle limit, the entries
     * idle for longer than the limit expire and the ended records of sequences created before it go. Returns the
     * expired clients in the order every executor expires them.
     */
    List<String> advance(long time, long idleLimit) {
        agreedTime = Math.max(agreedTime, time);
        if (idleLimit <= 0) {
            return List.of();
        }
        long cutoff = agreedTime - idleLimit;
        for (String gone : endedAges.removeOlderThan(cutoff)) {
            ended.remove(gone);
        }
        List<String> expired = entryAges.removeOlderThan(cutoff);
        expired.forEach(entries::remove);
        return expired;
    }

    /** The cached reply for exactly this request, if it was the client's last executed one and has finished. */
    Optional<byte[]> cachedReply(RequestId id) {
        Entry e = entries.get(id.client());
        return e != null && e.number() == id.number() && e.reply() != null ? Optional.of(e.reply()) : Optional.empty();
    }

    void executing(RequestId id, long createdAt) {
        long active = activeUntil(agreedTime, createdAt);
        entries.put(id.client(), new Entry(id.number(), null, active));
        entryAges.put(id.client(), active);
    }

    void executed(RequestId id, byte[] reply) {
        Entry e = entries.get(id.client());
        if (e != null) {
            // executing() set its activity and age already: the reply is all that changes
            entries.put(id.client(), new Entry(id.number(), reply.clone(), e.lastActive()));
            return;
        }
        entries.put(id.client(), new Entry(id.number(), reply.clone(), Long.MAX_VALUE));
        entryAges.put(id.client(), Long.MAX_VALUE);
    }

    /** The client's sequence ended (its TerminateSequence executed): its entry goes, a record that it ended stays. */
    void end(String client, long createdAt) {
        entries.remove(client);
        entryAges.remove(client);
        long keep = createdAt == SequenceRules.NO_CREATION_TIME ? Long.MAX_VALUE : createdAt;
        ended.put(client, keep);
        endedAges.put(client, keep);
    }

    boolean ended(String client) {
        return ended.containsKey(client);
    }

    /** The ended sequences with their creation times, sorted, so every executor encodes them to the same bytes. */
    SortedMap<String, Long> endedClients() {
        return Collections.unmodifiableSortedMap(ended);
    }

    ReplyTable copy() {
        return new ReplyTable(new TreeMap<>(entries), new TreeMap<>(ended), agreedTime);
    }

    /** Sorted by client, so every executor encodes the same table to the same bytes. */
    Map<String, Entry> entries() {
        return Collections.unmodifiableMap(entries);
    }

    int size() {
        return entries.size();
    }

    int endedSize() {
        return ended.size();
    }

    /** The clients with a live entry, sorted. */
    List<String> clients() {
        return new ArrayList<>(entries.keySet());
    }
}
