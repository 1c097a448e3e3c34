package org.bftws.channels;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.bftws.core.Claim;
import org.bftws.core.Message;
import org.bftws.core.SignedClaim;
import org.bftws.core.Status;

/**
 * The messages waiting for one peer, each at most once. The core retransmits by handing out the very objects it sent
 * before (its view-change, its votes, the primary's pre-prepares), so a copy still waiting is recognised by identity,
 * without hashing a view-change's certificates; and of this node's statuses only the newest waits, as a newer one
 * says all an older one did. When more than {@code limit} messages wait (the peer is down), the oldest go: PBFT's
 * status exchange resends what still matters once the peer is back.
 *
 * <p>Claims (a request's vouchers, {@link Claim} and {@link SignedClaim}) wait in a queue of their own behind the
 * ordering messages: a client can make a replica claim many requests that are never ordered, and those claims must
 * not delay a pre-prepare, prepare, commit or view-change into a timeout. They still get a quarter of every batch
 * when they wait, so honest requests' claims keep moving under load. Thread-safe.
 */
public final class PeerQueue {

    private final int limit;
    private final ArrayDeque<Message> queue = new ArrayDeque<>();
    private final ArrayDeque<Message> claims = new ArrayDeque<>();
    private final Set<Message> queued = Collections.newSetFromMap(new IdentityHashMap<>());
    private Status status;
    private long duplicates;

    PeerQueue(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        this.limit = limit;
    }

    synchronized void offer(Message m) {
        if (m instanceof Status s) {
            if (status != null) {
                queue.remove(status);
                queued.remove(status);
                duplicates++;
            }
            status = s;
        } else if (queued.contains(m)) {
            duplicates++;
            return;
        }
        ArrayDeque<Message> q = isClaim(m) ? claims : queue;
        q.addLast(m);
        queued.add(m);
        while (q.size() > limit) {
            forget(q.pollFirst());
        }
        notifyAll();
    }

    /**
     * Up to {@code max} messages, ordering messages first in the order they were offered, then claims (at least a
     * quarter of {@code max} of them when they wait); empty when none came within {@code waitMillis}.
     */
    synchronized List<Message> take(int max, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        long left;
        while (queue.isEmpty() && claims.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
            wait(Math.max(1, left / 1_000_000));
        }
        int claimShare = claims.isEmpty() ? 0 : Math.min(claims.size(), Math.max(1, max / 4));
        List<Message> out = new ArrayList<>(Math.min(max, queue.size() + claims.size()));
        while (out.size() < max - claimShare && !queue.isEmpty()) {
            out.add(poll(queue));
        }
        while (out.size() < max && !claims.isEmpty()) {
            out.add(poll(claims));
        }
        return out;
    }

    synchronized int size() {
        return queue.size() + claims.size();
    }

    private static boolean isClaim(Message m) {
        return m instanceof Claim || m instanceof SignedClaim;
    }

    private Message poll(ArrayDeque<Message> q) {
        Message m = q.pollFirst();
        forget(m);
        return m;
    }

    /** Messages not queued again because a copy (or, for statuses, a newer one) was already waiting. */
    public synchronized long duplicates() {
        return duplicates;
    }

    private void forget(Message m) {
        queued.remove(m);
        if (m == status) {
            status = null;
        }
    }
}
