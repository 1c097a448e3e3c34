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
 * Soft state: nothing here is persisted; claims are sent again while their requests wait.
 */
final class RequestClaims {

    /** Claims a node may have outstanding here for requests not yet ordered; more are ignored (memory bound). */
    static final int MAX_PER_CLAIMANT = 16_384;

    /** What this node knows of one gated request. */
    static final class Entry {
        final RequestRef ref;
        /** Agreement nodes (bit per id) that claimed it, signed or not. */
        long claimants;
        /** The signed claims held for it, by signer. */
        final Map<Integer, SignedClaim> signed = new HashMap<>(4);
        boolean authenticatedHere;
        /** This node signed a claim for it (the slow path started here). */
        boolean signedHere;
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
        e.claimants |= 1L << self;
        return true;
    }

    /** Records that {@code claimant} claimed {@code ref}; false when that claimant has too many outstanding. */
    boolean claimed(RequestRef ref, int claimant) {
        Entry e = entries.get(ref);
        long bit = 1L << claimant;
        if (e != null && (e.claimants & bit) != 0) {
            return true;
        }
        if (claimant != self && outstanding.getOrDefault(claimant, 0) >= MAX_PER_CLAIMANT) {
            return false;
        }
        e = entry(ref);
        e.claimants |= bit;
        if (claimant != self) {
            outstanding.merge(claimant, 1, Integer::sum);
        }
        return true;
    }

    /**
     * Records a signed claim for {@code ref}; true when it made the request certified (f+1 distinct signers) just
     * now.
     */
    boolean signedClaim(RequestRef ref, SignedClaim sc) {
        if (!claimed(ref, sc.sender())) {
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

    private void remove(RequestRef ref) {
        Entry e = entries.remove(ref);
        if (e == null) {
            return;
        }
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
