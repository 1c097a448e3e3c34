package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * The request bodies an agreement node holds, by digest; the variants (different bodies) of each request id, since a
 * Byzantine client may send different bodies under one id to different replicas; and the slots whose accepted
 * pre-prepares wait for a body that has not arrived. {@link RequestStore} decides which requests wait for ordering;
 * this class only keeps their content.
 */
final class RequestBodies {

    /** Variants accepted for one request id; a correct client sends one. */
    static final int MAX_VARIANTS = 3;

    private final Map<Digest, Request> bodies = new HashMap<>();
    private final Map<RequestId, List<Digest>> variants = new HashMap<>();
    /** Digests that accepted pre-prepares name but whose bodies have not arrived, with the slots that wait. */
    private final Map<Digest, TreeSet<Long>> awaited = new HashMap<>();
    private final List<RequestRef> evicted = new ArrayList<>(0);

    boolean contains(Digest d) {
        return bodies.containsKey(d);
    }

    Request body(Digest d) {
        return bodies.get(d);
    }

    /**
     * Keeps {@code r} as a new variant of its id; when its id has {@link #MAX_VARIANTS} already and {@code r} is
     * {@code proven}, the oldest variant that is {@code evictable} and awaited by no slot makes room (see
     * {@link #takeEvicted}). False when there is no room.
     */
    boolean addVariant(Request r, boolean proven, Predicate<RequestRef> evictable) {
        List<Digest> known = variants.computeIfAbsent(r.id(), k -> new ArrayList<>(1));
        if (known.size() >= MAX_VARIANTS && (!proven || !evictOne(r.id(), known, evictable))) {
            return false;
        }
        known.add(r.digest());
        bodies.put(r.digest(), r);
        return true;
    }

    private boolean evictOne(RequestId id, List<Digest> known, Predicate<RequestRef> evictable) {
        for (Digest d : known) {
            RequestRef ref = new RequestRef(id, d);
            if (!awaited.containsKey(d) && evictable.test(ref)) {
                forget(ref);
                evicted.add(ref);
                return true;
            }
        }
        return false;
    }

    /** The variants {@link #addVariant} evicted since the last call. */
    List<RequestRef> takeEvicted() {
        if (evicted.isEmpty()) {
            return List.of();
        }
        List<RequestRef> list = List.copyOf(evicted);
        evicted.clear();
        return list;
    }

    /** Forgets the body of {@code ref} and its variant, unless a slot awaits it. */
    void forget(RequestRef ref) {
        if (!awaited.containsKey(ref.digest())) {
            bodies.remove(ref.digest());
            List<Digest> known = variants.get(ref.id());
            if (known != null && known.remove(ref.digest()) && known.isEmpty()) {
                variants.remove(ref.id());
            }
        }
    }

    /** A body that an accepted pre-prepare needs, whatever its client's progress (it may be a replayed duplicate). */
    boolean addAwaitedBody(Request r) {
        if (!awaited.containsKey(r.digest())) {
            return false;
        }
        bodies.put(r.digest(), r);
        variants.computeIfAbsent(r.id(), k -> new ArrayList<>(1)).add(r.digest());
        return true;
    }

    /** A body another node vouched for as part of a committed batch (its client's signature was checked). */
    void addBody(Request r) {
        if (bodies.putIfAbsent(r.digest(), r) == null) {
            variants.computeIfAbsent(r.id(), k -> new ArrayList<>(1)).add(r.digest());
        }
    }

    boolean hasAll(Batch b) {
        for (RequestRef ref : b.requests()) {
            if (!bodies.containsKey(ref.digest())) {
                return false;
            }
        }
        return true;
    }

    List<Request> bodiesOf(Batch b) {
        List<Request> list = new ArrayList<>(b.size());
        for (RequestRef ref : b.requests()) {
            list.add(bodies.get(ref.digest()));
        }
        return list;
    }

    /** Records that slot {@code seq} waits for the bodies it lacks, and returns those digests. */
    List<Digest> awaitMissing(Batch b, long seq) {
        List<Digest> missing = new ArrayList<>();
        for (RequestRef ref : b.requests()) {
            if (!bodies.containsKey(ref.digest())) {
                missing.add(ref.digest());
                awaited.computeIfAbsent(ref.digest(), d -> new TreeSet<>()).add(seq);
            }
        }
        return missing;
    }

    /** The slots that waited for {@code digest}, now that it arrived. */
    Set<Long> arrived(Digest digest) {
        TreeSet<Long> slots = awaited.remove(digest);
        return slots == null ? Set.of() : slots;
    }

    /** Whether some slot waits for a request body. */
    boolean awaitsBodies() {
        return !awaited.isEmpty();
    }

    /**
     * Forgets bodies of committed requests ({@code committedNumber} of their client at or above their number) that no
     * slot above the stable checkpoint names any more.
     */
    void collectGarbage(Set<Digest> stillNamed, ToLongFunction<String> committedNumber) {
        bodies.values().removeIf(r -> r.id().number() <= committedNumber.applyAsLong(r.id().client())
                && !stillNamed.contains(r.digest()) && !awaited.containsKey(r.digest()));
        variants.keySet().removeIf(id -> id.number() <= committedNumber.applyAsLong(id.client()));
        awaited.values().removeIf(TreeSet::isEmpty);
    }

    /** Forgets that slots at or below {@code seq} wait for bodies (they were garbage-collected). */
    void stopAwaitingUpTo(long seq) {
        awaited.values().forEach(s -> s.headSet(seq, true).clear());
        awaited.values().removeIf(TreeSet::isEmpty);
    }

    int size() {
        return bodies.size();
    }
}
