package org.bftws.wire;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.bftws.config.GroupConfig;
import org.bftws.config.ProtocolConfig;
import org.bftws.core.Checkpoint;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.SignedClaim;
import org.bftws.core.ViewChange;

/**
 * The embedded signatures a node holds so that it can later embed the messages they sign (prepared certificates and
 * checkpoint proofs in its view-change, the proof of a state snapshot, the view-changes of a new-view) or relay them.
 * Only valid signatures enter: the node's own, and received ones after {@link ProofVerifier} checked them; so a
 * value found here needs no second check. Keyed by message value. The caller garbage-collects with
 * {@link #forgetUpTo} when a checkpoint becomes stable (which keeps what the newest new-view and the view-changes held
 * embed) and with
 * {@link #forgetViewsBefore} for the view-changes and new-views of views before the current one;
 * the capacity is a soft bound: past it the least recently used entry that no message the node may still send
 * needs goes first (counted and logged), and what it may still need stays even past the capacity
 * ({@link #evictEldestUnprotected}). Signed claims (docs/protocol.md, "Requests authenticated with MACs") live in a
 * region of their own with the same capacity, least recently used first: their number follows the clients' load,
 * not the watermark window, and no checkpoint garbage-collects them, so in the shared region they pushed out the
 * stable checkpoint's proof and a replica restarted empty could never be sent a state snapshot (ProcessFaultsTest).
 * A claim whose signature is dropped costs only time: the client's retransmission admits the request again.
 * Thread-safe.
 */
public final class SignatureCache implements SignatureSource {
    private static final Logger LOG = LoggerFactory.getLogger(SignatureCache.class);

    private final int capacity;
    /** Prepares (besides the pre-prepare) that make a prepared certificate: 2f. */
    private final int certificatePrepares;
    private final LinkedHashMap<Message, byte[]> entries;
    private final LinkedHashMap<Message, byte[]> claims;
    private long evictions;
    private long claimEvictions;
    /** The last stable checkpoint {@link #forgetUpTo} was told of: checkpoints at or above it are never evicted. */
    private long stableSeq;
    /** What held view-changes and the newest new-view embed ({@link #embeddedInViewMessages}); null: to compute. */
    private Set<Message> embedded;
    /** The pre-prepares and prepares held, by sequence number: what {@link #protectedFromView} looks at. */
    private final Map<Long, Set<Message>> bySlot = new HashMap<>();

    /** A cache for a group of f = 1 (a prepared certificate is a pre-prepare and 2 prepares). */
    public SignatureCache(int capacity) {
        this(capacity, 2);
    }

    /**
     * @param capacity            entries kept before the least recently used unprotected one goes
     * @param certificatePrepares matching prepares from distinct nodes that, with their pre-prepare, make a prepared
     *                            certificate (2f)
     */
    public SignatureCache(int capacity, int certificatePrepares) {
        if (capacity < 1 || certificatePrepares < 1) {
            throw new IllegalArgumentException("capacity and certificatePrepares must be positive");
        }
        this.capacity = capacity;
        this.certificatePrepares = certificatePrepares;
        this.entries = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true);
        this.claims = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true);
    }

    /**
     * Room for what a correct node of {@code group} must keep, twice over: per sequence number in the watermark
     * window a pre-prepare and a prepare from every node, per checkpoint in the window one from every node, and a
     * view-change from every node plus a new-view for the current and the next view.
     */
    public static SignatureCache forGroup(GroupConfig group) {
        ProtocolConfig p = group.protocol();
        int n = group.nodes().size();
        long slots = (long) p.watermarkWindow() * (n + 1);
        long checkpoints = (long) n * (p.watermarkWindow() / p.checkpointInterval() + 2);
        long views = 2L * (n + 1);
        return new SignatureCache((int) Math.min(Integer.MAX_VALUE, 2 * (slots + checkpoints + views)),
                2 * group.f());
    }

    public int capacity() {
        return capacity;
    }

    /** Keeps the valid signature {@code signature} of transferable message {@code m}. */
    public synchronized void put(Message m, byte[] signature) {
        if (!m.transferable()) {
            throw new IllegalArgumentException("only transferable messages carry embedded signatures: " + m);
        }
        if (m instanceof SignedClaim) {
            claims.put(m, signature.clone());
            if (claims.size() > capacity) {
                Iterator<Message> eldest = claims.keySet().iterator();
                eldest.next();
                eldest.remove();
                claimEvictions++;
            }
            return;
        }
        entries.put(m, signature.clone());
        if (m instanceof PrePrepare || m instanceof Prepare) {
            bySlot.computeIfAbsent(slotOf(m), k -> new HashSet<>()).add(m);
        }
        if (m instanceof ViewChange || m instanceof NewView) {
            embedded = null;
        }
        if (entries.size() > capacity) {
            Message dropped = evictEldestUnprotected();
            if (dropped == null) {
                return;
            }
            evictions++;
            if (Long.bitCount(evictions) == 1) { // 1st, 2nd, 4th, 8th ...: visible, never a flood
                LOG.warn("signature cache full (" + capacity + "): dropped the signature of " + dropped + " ["
                        + evictions + " so far]; it holds what slots above the stable checkpoint need, so a long run"
                        + " of view changes without a new stable checkpoint (many views' messages per slot) fills it");
            }
        }
    }

    /**
     * Removes the least recently used signature that no view-change can need and returns its message (null when there
     * is none): not a checkpoint at or above the stable one, nor a message a held view-change or the newest new-view
     * embeds, nor a pre-prepare or prepare the node may still send or embed ({@link #stillNeeded}). A view-change or
     * new-view that cannot embed a signature cannot be sent at all, and a node journals what it embeds: evicting those
     * once left replicas unable to change view for good (2026-11-25 and 2026-11-27; {@link #stillNeeded} says how).
     * What is kept this way is bounded by the watermark window and the views' rounds above the stable checkpoint.
     */
    private Message evictEldestUnprotected() {
        if (embedded == null) {
            embedded = embeddedInViewMessages();
        }
        Iterator<Message> eldest = entries.keySet().iterator();
        while (eldest.hasNext()) {
            Message m = eldest.next();
            if (!(m instanceof Checkpoint c && c.seq() >= stableSeq) && !embedded.contains(m)
                    && !stillNeeded(m)) {
                eldest.remove();
                unindex(m);
                return m;
            }
        }
        return null;
    }

    /**
     * Whether {@code m} is a pre-prepare or prepare of a slot above the stable checkpoint that the node may still have
     * to embed or send: one of the prepared certificate of the highest view this cache holds complete for that slot
     * (a pre-prepare and {@code certificatePrepares} matching prepares from distinct nodes), or of a later view; for
     * a slot without a complete certificate, one of the highest view it holds (the round in progress). The first is
     * what the node's next view-change embeds for the slot (PBFT's P set); the second is what the node is sending now
     * and what may yet become that certificate. Only older views' messages of a slot are left to evict.
     * Under a run of view changes that each prepared a window without committing it, older views' messages filled
     * the cache and the least recently used entries were the current certificates of the lowest slots: every
     * replica's view-change then named a pre-prepare or prepare whose signature it had dropped, none could be sent,
     * and the group stopped for good (a two-minute {@code ./bftws soak --service kv} with a replica killed every 30
     * s, 2026-11-27). Protecting the certificates alone then evicted the newest entries instead, a primary's own
     * pre-prepare before its sending thread took it ("not sent: no signature known for PrePrepare(v3 n550 ...)"),
     * and under a heavy load the group stopped at view 9 (`measure sequences --count 100000`, same day): what a node
     * still needs is not evicted, and the cache grows past its capacity instead, by at most the views' rounds in
     * progress above the stable checkpoint.
     */
    private boolean stillNeeded(Message m) {
        int view;
        if (m instanceof PrePrepare pp) {
            view = pp.view();
        } else if (m instanceof Prepare p) {
            view = p.view();
        } else {
            return false;
        }
        long seq = slotOf(m);
        return seq > stableSeq && view >= protectedFromView(seq);
    }

    /**
     * The lowest view whose messages of slot {@code seq} stay: the highest view with a complete prepared certificate
     * held for it, or, without one, the highest view of any message held for it.
     */
    private int protectedFromView(long seq) {
        Set<Message> slot = bySlot.getOrDefault(seq, Set.of());
        Map<Integer, Map<Digest, Set<Integer>>> prepares = new HashMap<>();
        int highest = Integer.MIN_VALUE;
        for (Message m : slot) {
            if (m instanceof Prepare p) {
                prepares.computeIfAbsent(p.view(), k -> new HashMap<>())
                        .computeIfAbsent(p.digest(), k -> new HashSet<>()).add(p.sender());
                highest = Math.max(highest, p.view());
            } else if (m instanceof PrePrepare pp) {
                highest = Math.max(highest, pp.view());
            }
        }
        int certificate = Integer.MIN_VALUE;
        for (Message m : slot) {
            if (m instanceof PrePrepare pp && pp.view() > certificate && prepares.getOrDefault(pp.view(), Map.of())
                    .getOrDefault(pp.digest(), Set.of()).size() >= certificatePrepares) {
                certificate = pp.view();
            }
        }
        return certificate != Integer.MIN_VALUE ? certificate : highest;
    }

    private static long slotOf(Message m) {
        return m instanceof PrePrepare pp ? pp.seq() : ((Prepare) m).seq();
    }

    private void unindex(Message m) {
        if (m instanceof PrePrepare || m instanceof Prepare) {
            Set<Message> slot = bySlot.get(slotOf(m));
            if (slot != null && slot.remove(m) && slot.isEmpty()) {
                bySlot.remove(slotOf(m));
            }
        }
    }

    public synchronized boolean contains(Message m) {
        return entries.containsKey(m) || claims.containsKey(m);
    }

    @Override
    public synchronized Optional<byte[]> signatureOf(Message m) {
        byte[] s = m instanceof SignedClaim ? claims.get(m) : entries.get(m);
        return s == null ? Optional.empty() : Optional.of(s.clone());
    }

    /**
     * Checkpoint {@code stableSeq} became stable: forgets pre-prepares and prepares at or below it and checkpoints
     * below it (the stable checkpoint's own proof stays: view-changes and state snapshots embed it). Returns how many
     * signatures it forgot.
     */
    public synchronized int forgetUpTo(long stableSeq) {
        this.stableSeq = Math.max(this.stableSeq, stableSeq);
        embedded = null;
        int before = entries.size();
        Set<Message> keep = embeddedInViewMessages();
        entries.keySet().removeIf(m -> {
            boolean forget = !keep.contains(m) && ((m instanceof PrePrepare pp && pp.seq() <= stableSeq)
                    || (m instanceof Prepare p && p.seq() <= stableSeq)
                    || (m instanceof Checkpoint c && c.seq() < stableSeq));
            if (forget) {
                unindex(m);
            }
            return forget;
        });
        return before - entries.size();
    }

    /**
     * The messages the newest new-view held here embeds (its view-changes with their prepared certificates and
     * checkpoint proofs, and its re-proposals). That new-view is what a node which restarted, or lagged behind, needs
     * to enter the current view, and it is resent to such a node until the next view change; without these
     * signatures it could not be sent (it travels with every signature it embeds), and a replica restarted from its
     * data directory stayed out of the group's view until the next view change.
     */
    private Set<Message> embeddedInViewMessages() {
        NewView newest = null;
        Set<Message> embedded = new HashSet<>();
        for (Message m : entries.keySet()) {
            if (m instanceof NewView nv && (newest == null || nv.view() > newest.view())) {
                newest = nv;
            } else if (m instanceof ViewChange vc) {
                // A view-change held here (of the current view or a later one: forgetViewsBefore drops older ones)
                // may go into the new-view this node builds as the next primary, with every signature it embeds.
                // One from a node restarted with an old stable checkpoint carries certificates below ours; dropped,
                // they made that new-view unsendable and cost a second view change (docs/recovery.md, 14:53 run).
                addEmbedded(vc, embedded);
            }
        }
        if (newest != null) {
            // The new-view itself too: under a load that filled the cache, a new primary's own new-view lost its
            // signature before its sending threads took it ("NewView(v3 ...) not sent: no signature known for
            // NewView(v3 ...)", measure sequences, 2026-11-27) and the group needed two more view changes.
            embedded.add(newest);
            embedded.addAll(newest.prePrepares()); // its view-changes are held entries of the current view: above
        }
        return embedded;
    }

    private static void addEmbedded(ViewChange vc, Set<Message> into) {
        into.add(vc);
        into.addAll(vc.stableProof());
        vc.prepared().forEach(c -> {
            into.add(c.prePrepare());
            into.addAll(c.prepares());
        });
    }

    /** View {@code view} was installed: forgets view-changes and new-views of earlier views. */
    public synchronized int forgetViewsBefore(int view) {
        embedded = null;
        int before = entries.size();
        entries.keySet().removeIf(m -> (m instanceof ViewChange vc && vc.newView() < view)
                || (m instanceof NewView nv && nv.view() < view));
        return before - entries.size();
    }

    /** Signatures held, signed claims included. */
    public synchronized int size() {
        return entries.size() + claims.size();
    }

    /** Signed claims' signatures dropped because their region was full (their senders claim again). */
    public synchronized long claimEvictions() {
        return claimEvictions;
    }

    /** Entries dropped because the cache was full: non-zero means a missing garbage collection or a small capacity. */
    public synchronized long evictions() {
        return evictions;
    }
}
