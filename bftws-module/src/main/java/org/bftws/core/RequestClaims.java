package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who vouches for each gated request at this agreement node (docs/protocol.md, "Requests authenticated with MACs").
 * A gated request's authenticity cannot travel with it: a MAC authenticator convinces only the node whose entry
 * verifies, and a nested request's gate only its own node. So every node that authenticated a gated request says so
 * ({@link Claim}, and after a wait {@link SignedClaim}), and this class counts what it heard:
 * <ul>
 *   <li>the primary proposes a gated request once it holds it authenticated (or certified) and 2f other agreement
 *       nodes claimed it: with 2f+1 claimants, at least f+1 are correct and their claims reach every backup;</li>
 *   <li>a backup prepares a batch once each gated request in it is authenticated here, certified, or vouched for by
 *       f+1 distinct nodes (claimants, the primary that proposed it, backups that prepared it): at least one of them
 *       is correct and, by induction on who vouched first, some correct node authenticated it;</li>
 *   <li>f+1 signed claims <em>certify</em> a request: anybody can check them, so a primary may order it on that proof,
 *       and a backup that forwarded them to the primary suspects it if it still does not (the view-change timer of a
 *       gated request runs only from then on: a faulty client whose authenticator is valid at only some nodes can
 *       never make a correct node suspect a correct primary).</li>
 * </ul>
 * Soft state: nothing here is persisted; claims are sent again a few times, with backoff, while their requests wait
 * ({@link ClaimProtocol}).
 *
 * <p>Memory: a claimant may have {@link #MAX_PER_CLAIMANT} entries outstanding here. An entry only that claimant
 * vouches for (not authenticated here, no other claimant) is <em>uncorroborated</em>; when the claimant's budget is
 * full, its oldest uncorroborated entry makes room for the new one. A claim that adds a second claimant to an entry,
 * or a signed claim that completes a certificate, is never refused: so a faulty client whose requests verify at one
 * correct node only can fill that node's budget at its peers with entries nobody else claims, but never get its
 * honest claims refused there.
 */
final class RequestClaims {

    /**
     * Entries a node may claim here for requests not yet ordered (memory bound); beyond it, its oldest entry nobody
     * else vouches for goes, and only when it has none is a claim that no other claimant backs refused.
     */
    static final int MAX_PER_CLAIMANT = 16_384;

    /** What this node knows of one gated request. */
    static final class Entry {
        final RequestRef ref;
        /** Agreement nodes (bit per id) that claimed it, signed or not. */
        long claimants;
        /** The signed claims held for it, by signer. */
        final Map<Integer, SignedClaim> signed = new HashMap<>(4);
        boolean authenticatedHere;
        /**
         * The signed claim this node made for it (null: none yet; the slow path starts here): made once, and sent
         * again as the same object when the request is claimed again.
         */
        SignedClaim ownSigned;
        /** How many times this node claimed it again (bounded: {@link ClaimProtocol}). */
        int reclaims;
        /** When the slow path's scan first saw it (-1: not yet): how long others' claims of it have gone unproven. */
        long seenAt = -1;
        /** The view whose primary this node forwarded the request's certificate to (-1: none). */
        int forwardedInView = -1;
        /** From when this node counts the request against the primary (-1: not yet; see the class comment). */
        long suspectableSince = -1;
        /** When this node last asked for the body of a certified request it lacks (-1: never). */
        long bodyAskedAt = -1;

        Entry(RequestRef ref) {
            this.ref = ref;
        }
    }

    private final Membership membership;
    private final int self;
    private final Map<RequestRef, Entry> entries = new LinkedHashMap<>();
    private final Map<RequestId, List<RequestRef>> byId = new HashMap<>();
    private final Map<Integer, Integer> outstanding = new HashMap<>();
    /** Per claimant, its uncorroborated entries (see the class comment), oldest first. */
    private final Map<Integer, java.util.LinkedHashSet<RequestRef>> uncorroborated = new HashMap<>();

    RequestClaims(Membership membership, int self) {
        if (membership.agreementCount() > 64) {
            throw new IllegalArgumentException("at most 64 agreement nodes (f <= 21) are supported");
        }
        this.membership = membership;
        this.self = self;
    }

    Entry get(RequestRef ref) {
        return entries.get(ref);
    }

    private Entry entry(RequestRef ref) {
        Entry e = entries.get(ref);
        if (e == null) {
            e = new Entry(ref);
            entries.put(ref, e);
            byId.computeIfAbsent(ref.id(), k -> new ArrayList<>(1)).add(ref);
        }
        return e;
    }

    /** This node authenticated {@code ref}; true the first time (then it claims it to the others). */
    boolean authenticatedHere(RequestRef ref) {
        Entry e = entry(ref);
        if (e.authenticatedHere) {
            return false;
        }
        e.authenticatedHere = true;
        corroborated(e);
        e.claimants |= 1L << self;
        return true;
    }

    /**
     * Records that {@code claimant} claimed {@code ref}; false when that claimant has too many entries outstanding
     * here, none of which it alone vouches for, and this claim would be the only voucher of its entry too.
     */
    boolean claimed(RequestRef ref, int claimant) {
        Entry e = entries.get(ref);
        long bit = 1L << claimant;
        if (e != null && (e.claimants & bit) != 0) {
            return true;
        }
        boolean backed = e != null && (e.authenticatedHere || (e.claimants & ~bit) != 0);
        if (claimant != self && !backed && outstanding.getOrDefault(claimant, 0) >= MAX_PER_CLAIMANT
                && !evictOldestUncorroborated(claimant)) {
            return false;
        }
        return add(ref, claimant);
    }

    private boolean add(RequestRef ref, int claimant) {
        Entry e = entry(ref);
        if (claimant != self) {
            if (e.claimants == 0 && !e.authenticatedHere) {
                uncorroborated.computeIfAbsent(claimant, k -> new java.util.LinkedHashSet<>()).add(ref);
            } else {
                corroborated(e);
            }
            outstanding.merge(claimant, 1, Integer::sum);
        }
        e.claimants |= 1L << claimant;
        return true;
    }

    /** {@code e} gains a second voucher: its first claimant no longer vouches for it alone. */
    private void corroborated(Entry e) {
        long others = e.claimants & ~(1L << self);
        if (Long.bitCount(others) == 1) {
            int only = Long.numberOfTrailingZeros(others);
            java.util.Set<RequestRef> alone = uncorroborated.get(only);
            if (alone != null && alone.remove(e.ref) && alone.isEmpty()) {
                uncorroborated.remove(only);
            }
        }
    }

    private boolean evictOldestUncorroborated(int claimant) {
        java.util.LinkedHashSet<RequestRef> alone = uncorroborated.get(claimant);
        if (alone == null || alone.isEmpty()) {
            return false;
        }
        forget(alone.iterator().next());
        return true;
    }

    /**
     * Records a signed claim for {@code ref}; true when it made the request certified (f+1 distinct signers) just
     * now. One that completes a certificate is taken whatever its signer's budget.
     */
    boolean signedClaim(RequestRef ref, SignedClaim sc) {
        Entry known = entries.get(ref);
        boolean completes = known != null && !known.signed.containsKey(sc.sender())
                && known.signed.size() + 1 >= membership.weakQuorum();
        if (!claimed(ref, sc.sender()) && !(completes && add(ref, sc.sender()))) {
            return false;
        }
        Entry e = entry(ref);
        boolean before = certified(e);
        e.signed.putIfAbsent(sc.sender(), sc);
        return !before && certified(e);
    }

    boolean certified(Entry e) {
        return e != null && e.signed.size() >= membership.weakQuorum();
    }

    boolean certified(RequestRef ref) {
        return certified(entries.get(ref));
    }

    /** Authenticated here or certified: this node itself may vouch for the request (claim it, propose it). */
    boolean admitted(RequestRef ref) {
        Entry e = entries.get(ref);
        return e != null && (e.authenticatedHere || certified(e));
    }

    /** Whether 2f+1 agreement nodes (this one included) claimed {@code e}: at least f+1 correct ones did. */
    boolean stronglyClaimed(Entry e) {
        return e != null && Long.bitCount(e.claimants) >= membership.quorum();
    }

    /**
     * Whether {@code ref} is proven: certified, or claimed by 2f+1 agreement nodes. A correct node authenticated a
     * proven request, so it is never the variant that makes room for another ({@link RequestStore#add}).
     */
    boolean proven(RequestRef ref) {
        Entry e = entries.get(ref);
        return certified(e) || stronglyClaimed(e);
    }

    /** Agreement nodes other than this one that claimed {@code ref}. */
    int othersClaiming(RequestRef ref) {
        Entry e = entries.get(ref);
        return e == null ? 0 : Long.bitCount(e.claimants & ~(1L << self));
    }

    /**
     * Whether the primary may propose {@code ref}: it vouches for the request itself and 2f others claimed it, or it
     * holds a certificate (which it makes sure the backups get).
     */
    boolean proposable(RequestRef ref) {
        Entry e = entries.get(ref);
        return e != null && (certified(e) || (e.authenticatedHere && othersClaiming(ref) >= membership.prepareQuorum()));
    }

    /**
     * Distinct nodes vouching for {@code ref} in a slot: its claimants plus {@code alsoVouching} (a bit set of the
     * primary that proposed it and the backups that prepared it).
     */
    int vouchers(RequestRef ref, long alsoVouching) {
        Entry e = entries.get(ref);
        return Long.bitCount((e == null ? 0 : e.claimants) | alsoVouching);
    }

    /** The signed claims that certify {@code ref} (f+1 of them, fewer if it is not certified). */
    List<SignedClaim> certificate(RequestRef ref) {
        Entry e = entries.get(ref);
        if (e == null) {
            return List.of();
        }
        List<SignedClaim> list = new ArrayList<>(e.signed.values());
        return list.subList(0, Math.min(list.size(), membership.weakQuorum()));
    }

    /**
     * From when {@code ref} counts towards suspecting the primary: the tick its certificate was forwarded to this
     * view's primary, or -1 when it does not count (yet).
     */
    long suspectableSince(RequestRef ref, int view) {
        Entry e = entries.get(ref);
        return e == null || e.forwardedInView != view ? -1 : e.suspectableSince;
    }

    /** Every entry, for the slow path's scan (requests still waiting). */
    Iterable<Entry> entries() {
        return entries.values();
    }

    /** Request {@code id} was ordered: what was known of it (every variant) is history. */
    void ordered(RequestId id) {
        List<RequestRef> refs = byId.remove(id);
        if (refs != null) {
            refs.forEach(this::remove);
        }
    }

    /** Forgets requests whose client has moved past them (ordered, or superseded while this node was behind). */
    void collectGarbage(java.util.function.ToLongFunction<String> committedNumber) {
        List<RequestId> done = new ArrayList<>();
        for (RequestId id : byId.keySet()) {
            if (id.number() <= committedNumber.applyAsLong(id.client())) {
                done.add(id);
            }
        }
        done.forEach(this::ordered);
    }

    /** Forgets everything known of {@code ref} (an abandoned request, an evicted variant or entry). */
    void forget(RequestRef ref) {
        List<RequestRef> refs = byId.get(ref.id());
        if (refs != null && refs.remove(ref) && refs.isEmpty()) {
            byId.remove(ref.id());
        }
        remove(ref);
    }

    private void remove(RequestRef ref) {
        Entry e = entries.remove(ref);
        if (e == null) {
            return;
        }
        corroborated(e);
        long bits = e.claimants & ~(1L << self);
        for (int node = 0; bits != 0; node++, bits >>>= 1) {
            if ((bits & 1) != 0) {
                outstanding.computeIfPresent(node, (k, v) -> v <= 1 ? null : v - 1);
            }
        }
    }

    int size() {
        return entries.size();
    }
}
