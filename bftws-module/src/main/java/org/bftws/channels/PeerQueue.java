package org.bftws.channels;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import org.bftws.core.Message;
import org.bftws.core.Status;

/**
 * The messages waiting for one peer, each at most once. The core retransmits by handing out the very objects it sent
 * before (its view-change, its votes, the primary's pre-prepares), so a copy still waiting is recognised by identity,
 * without hashing a view-change's certificates; and of this node's statuses only the newest waits, as a newer one
 * says all an older one did. When more than {@code limit} messages wait (the peer is down), the oldest go: PBFT's
 * status exchange resends what still matters once the peer is back. Thread-safe.
 */
public final class PeerQueue {

    private final int limit;
    private final ArrayDeque<Message> queue = new ArrayDeque<>();
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
        queue.addLast(m);
        queued.add(m);
        while (queue.size() > limit) {
            forget(queue.pollFirst());
        }
        notifyAll();
    }

    /** Up to {@code max} messages in the order they were offered; empty when none came within {@code waitMillis}. */
    synchronized List<Message> take(int max, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        long left;
        while (queue.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
            wait(Math.max(1, left / 1_000_000));
        }
        List<Message> out = new ArrayList<>(Math.min(max, queue.size()));
        while (out.size() < max && !queue.isEmpty()) {
            Message m = queue.pollFirst();
            forget(m);
            out.add(m);
        }
        return out;
    }

    synchronized int size() {
        return queue.size();
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
