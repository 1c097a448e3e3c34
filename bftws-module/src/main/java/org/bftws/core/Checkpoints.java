package org.bftws.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checkpoint votes from executors, and the stable checkpoint: the newest sequence number for which a checkpoint
 * quorum of executors reported the same state digest. The stable checkpoint is the low watermark, the point below
 * which logs are discarded, and what state transfer ships with its proof.
 */
final class Checkpoints {

    /** The digest that stands for the initial state: sequence number 0 is stable everywhere, without proof. */
    static final Digest GENESIS = Digest.of(new byte[0]);

    private final Membership membership;
    private final ReplicaOptions options;
    private long stableSeq;
    private Digest stableDigest = GENESIS;
    private List<Checkpoint> stableProof = List.of();
    /** Digests one sender may vouch for at one sequence number. */
    static final int MAX_DIGESTS_PER_SENDER = 3;

    private final TreeMap<Long, Map<Integer, Map<Digest, Checkpoint>>> votes = new TreeMap<>();
    private final TreeMap<Long, Checkpoint> own = new TreeMap<>();
    /** Votes for the checkpoint that last became stable whose digest differs from it, until taken. */
    private List<Checkpoint> contradicting = List.of();

    Checkpoints(Membership membership, ReplicaOptions options) {
        this.membership = membership;
        this.options = options;
    }

    long stableSeq() {
        return stableSeq;
    }

    Digest stableDigest() {
        return stableDigest;
    }

    List<Checkpoint> stableProof() {
        return stableProof;
    }

    /** This node's own checkpoint messages at or above the stable one, for retransmission. */
    List<Checkpoint> ownAbove(long seq) {
        return new ArrayList<>(own.tailMap(seq, false).values());
    }

    /** Why {@code c} cannot be counted, or null when it can. */
    String problem(Checkpoint c) {
        if (!membership.isExecutor(c.sender())) {
            return "checkpoint from node " + c.sender() + ", which does not execute";
        }
        if (c.seq() <= 0 || c.seq() % options.checkpointInterval() != 0) {
            return "checkpoint at " + c.seq() + ", not a multiple of the interval " + options.checkpointInterval();
        }
        return null;
    }

    void addOwn(Checkpoint c) {
        if (c.seq() > stableSeq) {
            own.put(c.seq(), c);
        }
    }

    /**
     * Counts a valid checkpoint vote. A node that signs different digests for one sequence number (only a Byzantine
     * one does) counts for each of them, up to {@link #MAX_DIGESTS_PER_SENDER}: a quorum of distinct senders still
     * contains enough correct ones, and keeping only its first vote would let it hide its genuine one from a node
     * that needs it (with f+1 of 2f+1 executors, a lagging executor may need it). When a sender's votes are full, a
     * digest backed by more senders displaces its least-backed one, so junk cannot crowd out the genuine vote.
     * Returns true when this made a newer checkpoint stable.
     */
    boolean add(Checkpoint c) {
        if (c.seq() <= stableSeq) {
            return false;
        }
        Map<Integer, Map<Digest, Checkpoint>> atSeq = votes.computeIfAbsent(c.seq(), s -> new TreeMap<>());
        Map<Digest, Checkpoint> bySender = atSeq.computeIfAbsent(c.sender(), s -> new TreeMap<>());
        if (bySender.containsKey(c.state())) {
            return false;
        }
        if (bySender.size() >= MAX_DIGESTS_PER_SENDER) {
            // Full: a digest other senders back displaces this sender's least-backed one, junk does not.
            Digest weakest = null;
            for (Digest d : bySender.keySet()) {
                if (weakest == null || supporters(atSeq, d) < supporters(atSeq, weakest)) {
                    weakest = d;
                }
            }
            if (supporters(atSeq, c.state()) + 1 <= supporters(atSeq, weakest)) {
                return false;
            }
            bySender.remove(weakest);
        }
        boolean firstFromSender = bySender.isEmpty();
        bySender.put(c.state(), c);
        if (firstFromSender) {
            forgetOldestBeyondLimit(c.sender());
        }
        List<Checkpoint> matching = new ArrayList<>();
        for (Map<Digest, Checkpoint> v : atSeq.values()) {
            Checkpoint same = v.get(c.state());
            if (same != null) {
                matching.add(same);
            }
        }
        if (matching.size() < membership.checkpointQuorum()) {
            return false;
        }
        makeStable(c.seq(), c.state(), matching);
        return true;
    }

    private static int supporters(Map<Integer, Map<Digest, Checkpoint>> atSeq, Digest d) {
        int n = 0;
        for (Map<Digest, Checkpoint> v : atSeq.values()) {
            if (v.containsKey(d)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Keeps at most a window's worth of pending votes per sender (dropping its lowest), so a Byzantine node cannot
     * fill memory with checkpoints for made-up sequence numbers, while a node far behind still learns where the
     * others stand.
     */
    private void forgetOldestBeyondLimit(int sender) {
        int limit = 2 * options.watermarkWindow() / options.checkpointInterval() + 2;
        List<Long> held = new ArrayList<>();
        for (Map.Entry<Long, Map<Integer, Map<Digest, Checkpoint>>> e : votes.entrySet()) {
            if (e.getValue().containsKey(sender)) {
                held.add(e.getKey());
            }
        }
        for (int i = 0; i < held.size() - limit; i++) {
            Map<Integer, Map<Digest, Checkpoint>> atSeq = votes.get(held.get(i));
            atSeq.remove(sender);
            if (atSeq.isEmpty()) {
                votes.remove(held.get(i));
            }
        }
    }

    /** Adopts a stable checkpoint proven elsewhere (a new-view, a state snapshot). True when it was newer. */
    boolean adopt(long seq, Digest digest, List<Checkpoint> proof) {
        if (seq <= stableSeq) {
            return false;
        }
        makeStable(seq, digest, proof);
        return true;
    }

    private void makeStable(long seq, Digest digest, List<Checkpoint> proof) {
        List<Checkpoint> against = new ArrayList<>();
        votes.getOrDefault(seq, Map.of()).values().forEach(bySender -> bySender.forEach((d, c) -> {
            if (!d.equals(digest)) {
                against.add(c);
            }
        }));
        contradicting = against;
        stableSeq = seq;
        stableDigest = digest;
        stableProof = List.copyOf(proof);
        votes.headMap(seq, true).clear();
        own.headMap(seq, false).clear();
    }

    /**
     * The votes for the stable checkpoint's sequence number that named another digest, once: a correct executor
     * never sends one (its state is the group's), so each is a Byzantine node's lie (or a non-deterministic
     * service), which the node reports as a dropped input of its sender.
     */
    List<Checkpoint> takeContradicting() {
        List<Checkpoint> taken = contradicting;
        contradicting = List.of();
        return taken;
    }

    /** Own checkpoint digest at {@code seq}, if this node took one. */
    Digest ownDigest(long seq) {
        Checkpoint c = own.get(seq);
        return c == null ? null : c.state();
    }

    /**
     * Whether {@code proof} shows the checkpoint ({@code seq}, {@code digest}) stable: a checkpoint quorum of
     * distinct executors, all for that sequence number and digest. Sequence number 0 needs no proof.
     */
    boolean proves(long seq, Digest digest, List<Checkpoint> proof) {
        if (seq == 0) {
            return GENESIS.equals(digest);
        }
        if (seq < 0 || seq % options.checkpointInterval() != 0) {
            return false;
        }
        Set<Integer> senders = new HashSet<>();
        for (Checkpoint c : proof) {
            if (c.seq() != seq || !c.state().equals(digest) || !membership.isExecutor(c.sender())) {
                return false;
            }
            senders.add(c.sender());
        }
        return senders.size() >= membership.checkpointQuorum();
    }
}
