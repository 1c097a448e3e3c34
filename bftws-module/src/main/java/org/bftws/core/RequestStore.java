package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The requests an agreement node holds: their bodies ({@link RequestBodies}), the requests still waiting to be ordered
 * per client, and which client message numbers are ordered (committed in sequence order) or proposed.
 *
 * <p>A request is eligible for ordering when it is next in its client's sequence (WS-RM InOrder): number
 * {@code k} after {@code k-1} was committed or proposed. A Byzantine client may send different bodies under one id
 * to different replicas, so bodies are kept by digest and an id may have a few variants.
 */
final class RequestStore {

    enum Admission { NEW, KNOWN, DUPLICATE, TOO_FAR_AHEAD, TOO_MANY_VARIANTS }

    private record Waiting(Request request, long arrival, long tick) {
    }

    private final int maxPendingPerClient;
    private final RequestBodies bodies = new RequestBodies();
    private final TreeMap<String, TreeMap<Long, List<Waiting>>> waiting = new TreeMap<>();
    private final Map<String, Long> committed = new HashMap<>();
    private final Map<String, Long> proposed = new HashMap<>();
    /**
     * Clients whose sequence ended (their TerminateSequence committed), with their creation times: everything they
     * send counts as ordered already, and nothing else of them is kept.
     */
    private final Map<String, Long> ended = new HashMap<>();
    /**
     * The executors' expiry rules, applied here at commit in the same order (docs/protocol.md, "Expiry"), so that a
     * primary proposes no request of an expired sequence and no backup waits for one: the running maximum of the
     * committed batches' times, each committed client's last activity, each ended record's creation time.
     */
    private final long idleLimit;
    private final SequenceRules rules;
    private long agreedTime;
    private final SequenceAges committedAges = new SequenceAges();
    /**
     * Clients with waiting requests and no progress, by their sequence's creation time: they expire by the same rule
     * ({@link #committedNumber}), and their waiting requests go then, found without a scan.
     */
    private final SequenceAges waitingAges = new SequenceAges();
    private final SequenceAges endedAges = new SequenceAges();
    private long arrivals;

    RequestStore(int maxPendingPerClient) {
        this(maxPendingPerClient, 0, SequenceRules.NONE);
    }

    RequestStore(int maxPendingPerClient, long idleLimit, SequenceRules rules) {
        this.maxPendingPerClient = maxPendingPerClient;
        this.idleLimit = idleLimit;
        this.rules = rules;
    }

    /** A request from its client (or relayed with the client's signature): kept until it is ordered. */
    Admission add(Request r, long now) {
        return add(r, now, variant -> false, variant -> false);
    }

    /**
     * As {@link #add(Request, long)}; when {@code r} is {@code proven} (some correct node authenticated it) and its id
     * has {@link RequestBodies#MAX_VARIANTS} variants already, the oldest variant that is {@code evictable} (unproven, named by no
     * slot) makes room for it: a faulty client's variants cannot keep a proven request from being ordered. The
     * evicted variants are returned by {@link #takeEvicted}.
     */
    Admission add(Request r, long now, java.util.function.Predicate<RequestRef> proven,
                  java.util.function.Predicate<RequestRef> evictable) {
        RequestId id = r.id();
        long last = committedNumber(id.client());
        if (id.number() <= last) {
            return Admission.DUPLICATE;
        }
        if (id.number() > last + maxPendingPerClient) {
            return Admission.TOO_FAR_AHEAD;
        }
        if (bodies.contains(r.digest())) {
            // Known as a body (a pre-prepare named it, or a restart restored it) but perhaps not as a request a
            // client waits for: only the latter starts the timer that suspects a primary ignoring it.
            wait(r, now);
            return Admission.KNOWN;
        }
        if (!bodies.addVariant(r, proven.test(r.ref()), evictable)) {
            return Admission.TOO_MANY_VARIANTS;
        }
        wait(r, now);
        return Admission.NEW;
    }

    /** The variants {@link #add} evicted since the last call. */
    List<RequestRef> takeEvicted() {
        return bodies.takeEvicted();
    }

    /**
     * Forgets waiting request {@code r} (abandoned: see {@link ClaimProtocol}): its waiting entry, its body unless a
     * slot awaits it, its variant. A retransmission adds it again.
     */
    void abandon(Request r) {
        RequestRef ref = r.ref();
        RequestId id = ref.id();
        TreeMap<Long, List<Waiting>> q = waiting.get(id.client());
        if (q != null) {
            List<Waiting> atNumber = q.get(id.number());
            if (atNumber != null) {
                atNumber.removeIf(w -> w.request().digest().equals(ref.digest()));
                if (atNumber.isEmpty()) {
                    q.remove(id.number());
                }
            }
            if (q.isEmpty()) {
                waiting.remove(id.client());
            }
        }
        bodies.forget(ref);
    }

    private void wait(Request r, long now) {
        String client = r.id().client();
        if (!waiting.containsKey(client) && !committed.containsKey(client) && idleLimit > 0) {
            long createdAt = rules.createdAt(client);
            if (createdAt != SequenceRules.NO_CREATION_TIME) {
                waitingAges.put(client, createdAt);
            }
        }
        List<Waiting> atNumber = waiting.computeIfAbsent(client, c -> new TreeMap<>())
                .computeIfAbsent(r.id().number(), n -> new ArrayList<>(1));
        if (atNumber.stream().noneMatch(w -> w.request().digest().equals(r.digest()))) {
            atNumber.add(new Waiting(r, arrivals++, now));
        }
    }

    /** A body that an accepted pre-prepare needs, whatever its client's progress (it may be a replayed duplicate). */
    boolean addAwaitedBody(Request r) {
        return bodies.addAwaitedBody(r);
    }

    /** A body another node vouched for as part of a committed batch (its client's signature was checked). */
    void addBody(Request r) {
        bodies.addBody(r);
    }

    Request body(Digest d) {
        return bodies.body(d);
    }

    boolean hasAll(Batch b) {
        return bodies.hasAll(b);
    }

    List<Request> bodiesOf(Batch b) {
        return bodies.bodiesOf(b);
    }

    /** Records that slot {@code seq} waits for the bodies it lacks, and returns those digests. */
    List<Digest> awaitMissing(Batch b, long seq) {
        return bodies.awaitMissing(b, seq);
    }

    /** The slots that waited for {@code digest}, now that it arrived. */
    Set<Long> arrived(Digest digest) {
        return bodies.arrived(digest);
    }

    /** Whether some slot waits for a request body. */
    boolean awaitsBodies() {
        return bodies.awaitsBodies();
    }

    /**
     * The client's last number committed in sequence order; every number for a sequence that ended, or that has no
     * progress and was created longer than the idle limit ago (expired: the executors refuse it for ever).
     */
    long committedNumber(String client) {
        if (ended.containsKey(client)) {
            return Long.MAX_VALUE;
        }
        Long n = committed.get(client);
        if (n != null) {
            return n;
        }
        return ReplyTable.admission(rules.createdAt(client), idleLimit, agreedTime) == ReplyTable.Verdict.EXPIRED
                ? Long.MAX_VALUE : 0;
    }

    boolean ended(String client) {
        return ended.containsKey(client);
    }

    long agreedTime() {
        return agreedTime;
    }

    /**
     * A committed batch with time {@code time} is processed: the agreed time moves up to it, and the clients idle
     * for longer than the limit are forgotten (their progress, proposals and waiting requests), like the executors
     * expire them when the batch executes; ended records of sequences created before the limit go. Returns the
     * expired clients in order.
     */
    List<String> advance(long time) {
        List<String> expired = advanceClock(time);
        expireWaitingWithoutProgress();
        return expired;
    }

    private List<String> advanceClock(long time) {
        agreedTime = Math.max(agreedTime, time);
        if (idleLimit <= 0) {
            return List.of();
        }
        long cutoff = agreedTime - idleLimit;
        endedAges.removeOlderThan(cutoff).forEach(ended::remove);
        List<String> expired = committedAges.removeOlderThan(cutoff);
        for (String c : expired) {
            committed.remove(c);
            proposed.remove(c);
            waiting.remove(c);
        }
        return expired;
    }

    /**
     * Forgets the waiting requests of clients without progress whose sequence was created longer than the idle limit
     * ago: expired by their creation time alone, as the executors refuse them ({@link #committedNumber}). Not
     * reported as expired (no executor has an entry of them to expire).
     */
    private void expireWaitingWithoutProgress() {
        if (idleLimit <= 0) {
            return;
        }
        for (String c : waitingAges.removeOlderThan(agreedTime - idleLimit)) {
            if (!committed.containsKey(c) && !ended.containsKey(c)) {
                proposed.remove(c);
                waiting.remove(c);
            }
        }
    }

    /**
     * Request {@code id} was committed in sequence order. Only the client's next number advances it; anything else
     * is a duplicate or out of order and changes nothing (an out-of-order request stays waiting).
     */
    void committed(RequestId id, boolean terminates) {
        String client = id.client();
        long createdAt = rules.createdAt(client);
        if (!committed.containsKey(client) && !ended.containsKey(client)
                && ReplyTable.admission(createdAt, idleLimit, agreedTime) == ReplyTable.Verdict.NOT_YET_VALID) {
            // The executors refuse it at this point of the order; its client may send it again once the agreed time
            // caught up. Neither waiting nor proposed: a backup must not suspect the primary over it.
            proposed.remove(client);
            TreeMap<Long, List<Waiting>> q = waiting.get(client);
            if (q != null) {
                q.remove(id.number());
                if (q.isEmpty()) {
                    waiting.remove(client);
                }
            }
            return;
        }
        long last = committedNumber(client);
        if (ended.containsKey(client) || id.number() != last + 1) {
            return;
        }
        if (terminates) {
            end(client, createdAt);
            return;
        }
        committed.put(id.client(), id.number());
        waitingAges.remove(client);
        committedAges.put(client, ReplyTable.activeUntil(agreedTime, createdAt));
        proposed.merge(id.client(), id.number(), Math::max);
        TreeMap<Long, List<Waiting>> q = waiting.get(id.client());
        if (q != null) {
            q.headMap(id.number(), true).clear();
            if (q.isEmpty()) {
                waiting.remove(id.client());
            }
        }
    }

    /** The client's sequence ended: its progress and waiting requests are forgotten, the fact that it ended kept. */
    private void end(String client, long createdAt) {
        long keep = createdAt == SequenceRules.NO_CREATION_TIME ? Long.MAX_VALUE : createdAt;
        ended.put(client, keep);
        endedAges.put(client, keep);
        committedAges.remove(client);
        committed.remove(client);
        proposed.remove(client);
        waiting.remove(client);
    }

    /** After a state transfer: clients' progress as the installed last-reply table says. */
    void jumpTo(ReplyTable table) {
        table.endedClients().forEach(this::end);
        agreedTime = Math.max(agreedTime, table.agreedTime());
        // What the table no longer has expired (or never started): forgotten here as well.
        advanceClock(agreedTime);
        for (Map.Entry<String, ReplyTable.Entry> e : table.entries().entrySet()) {
            long n = e.getValue().number();
            committedAges.put(e.getKey(), e.getValue().lastActive());
            // the live entry itself, not committedNumber: without an entry here yet, that would call it expired
            if (!ended.containsKey(e.getKey()) && n > committed.getOrDefault(e.getKey(), 0L)) {
                committed.put(e.getKey(), n);
                TreeMap<Long, List<Waiting>> q = waiting.get(e.getKey());
                if (q != null) {
                    q.headMap(n, true).clear();
                    if (q.isEmpty()) {
                        waiting.remove(e.getKey());
                    }
                }
            }
        }
        expireWaitingWithoutProgress();
        proposed.clear();
    }

    /** A new view: the primary's proposals start again from what is committed plus what the new view re-proposes. */
    void resetProposed(List<Batch> reproposed) {
        proposed.clear();
        for (Batch b : reproposed) {
            markProposed(b);
        }
    }

    void markProposed(Batch b) {
        for (RequestRef ref : b.requests()) {
            String c = ref.id().client();
            if (!ended.containsKey(c) && ref.id().number() == nextToPropose(c)) {
                proposed.put(c, ref.id().number());
            }
        }
    }

    private long nextToPropose(String client) {
        return Math.max(committedNumber(client), proposed.getOrDefault(client, 0L)) + 1;
    }

    /**
     * Requests the primary could propose now, up to {@code limit}: each client's next ones, as far as {@code ready}
     * accepts them (a gated request waits for its claims, {@link RequestClaims}).
     */
    int eligibleCount(int limit, java.util.function.Predicate<Request> ready) {
        int count = 0;
        for (Map.Entry<String, TreeMap<Long, List<Waiting>>> e : waiting.entrySet()) {
            long next = nextToPropose(e.getKey());
            while (count < limit && readyAt(e.getValue().get(next), ready) != null) {
                count++;
                next++;
            }
            if (count >= limit) {
                break;
            }
        }
        return count;
    }

    /** The first variant at a position that {@code ready} accepts, or null. */
    private static Waiting readyAt(List<Waiting> atNumber, java.util.function.Predicate<Request> ready) {
        if (atNumber != null) {
            for (Waiting w : atNumber) {
                if (ready.test(w.request())) {
                    return w;
                }
            }
        }
        return null;
    }

    /** When the oldest request the primary could propose now arrived, if any. */
    OptionalLong oldestEligibleTick(java.util.function.Predicate<Request> ready) {
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<String, TreeMap<Long, List<Waiting>>> e : waiting.entrySet()) {
            Waiting w = readyAt(e.getValue().get(nextToPropose(e.getKey())), ready);
            if (w != null) {
                oldest = Math.min(oldest, w.tick());
            }
        }
        return oldest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(oldest);
    }

    /** When a waiting request starts to count against the primary; negative: it does not (yet). */
    @FunctionalInterface
    interface WaitClock {
        long since(Request r, long arrivedAt);
    }

    /**
     * From when the oldest request that is next in its client's sequence and not committed counts as waiting: what a
     * replica waits for, and suspects the primary over when it waits too long. Requests behind a gap in their
     * sequence do not count; {@code clock} says from when each one counts (its arrival, or later for a gated one).
     */
    OptionalLong oldestWaitingTick(WaitClock clock) {
        long oldest = Long.MAX_VALUE;
        for (Map.Entry<String, TreeMap<Long, List<Waiting>>> e : waiting.entrySet()) {
            List<Waiting> atNumber = e.getValue().get(committedNumber(e.getKey()) + 1);
            if (atNumber == null) {
                continue;
            }
            for (Waiting w : atNumber) {
                long since = clock.since(w.request(), w.tick());
                if (since >= 0) {
                    oldest = Math.min(oldest, since);
                }
            }
        }
        return oldest == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(oldest);
    }

    /** Every waiting request (all variants, all numbers not committed), with the tick it arrived. */
    void forEachWaiting(java.util.function.ObjLongConsumer<Request> visitor) {
        for (TreeMap<Long, List<Waiting>> perClient : waiting.values()) {
            for (List<Waiting> atNumber : perClient.values()) {
                for (Waiting w : atNumber) {
                    visitor.accept(w.request(), w.tick());
                }
            }
        }
    }

    /** The primary's next batch: up to {@code max} eligible requests ({@code ready}), oldest first, each client's in order. */
    Batch nextBatch(int max, java.util.function.Predicate<Request> ready) {
        List<RequestRef> refs = new ArrayList<>();
        while (refs.size() < max) {
            Waiting best = null;
            for (Map.Entry<String, TreeMap<Long, List<Waiting>>> e : waiting.entrySet()) {
                Waiting w = readyAt(e.getValue().get(nextToPropose(e.getKey())), ready);
                if (w != null && (best == null || w.arrival() < best.arrival())) {
                    best = w;
                }
            }
            if (best == null) {
                break;
            }
            refs.add(best.request().ref());
            proposed.put(best.request().id().client(), best.request().id().number());
        }
        return new Batch(refs);
    }

    /** Forgets bodies of committed requests that no slot above the stable checkpoint names any more. */
    void collectGarbage(Set<Digest> stillNamed) {
        bodies.collectGarbage(stillNamed, this::committedNumber);
    }

    /** Forgets that slots at or below {@code seq} wait for bodies (they were garbage-collected). */
    void stopAwaitingUpTo(long seq) {
        bodies.stopAwaitingUpTo(seq);
    }

    int bodyCount() {
        return bodies.size();
    }

    int waitingCount() {
        return waiting.values().stream().mapToInt(TreeMap::size).sum();
    }
}
