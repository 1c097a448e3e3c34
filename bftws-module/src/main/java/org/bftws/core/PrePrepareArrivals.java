package org.bftws.core;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * This backup's clock when each recent pre-prepare first reached it, whether it could take it then or not. A
 * backup checks the primary's time in a pre-prepare against that clock, not against its clock when it finally takes
 * the message: a pre-prepare legitimately waits here (for this node to enter its view, or for the stable checkpoint
 * to open its sequence number, or it comes again after a loss), and judged late it looks as old as the wait, so a
 * correct primary was refused and replaced (simulator seeds 142018 and 101666, 2026-11-27). What a faulty primary
 * gains: its time must still lie within the bound of this node's clock when the pre-prepare arrived, but it may send
 * pre-prepares for up to two windows of sequence numbers early and have them taken later, so their times may be as old
 * as that delay; the agreed time is a running maximum and never moves back, so this holds expiry back (as a primary
 * may while it is one), never forward. Bounded: only sequence numbers up to two windows above the stable checkpoint
 * are remembered, and at most {@code capacity} of them.
 */
final class PrePrepareArrivals {

    private record Key(int view, long seq, Digest digest) {
    }

    private final int capacity;
    private final Map<Key, Long> firstSeen = new LinkedHashMap<>();

    PrePrepareArrivals(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Notes that {@code pp} reached this node at {@code clockMillis} (the first time counts) and returns the clock of
     * its first arrival.
     */
    long arrived(PrePrepare pp, long clockMillis) {
        Key k = new Key(pp.view(), pp.seq(), pp.digest());
        Long first = firstSeen.putIfAbsent(k, clockMillis);
        if (first != null) {
            return first;
        }
        if (firstSeen.size() > capacity) {
            Iterator<Key> oldest = firstSeen.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return clockMillis;
    }

    /** The stable checkpoint moved to {@code seq}: arrivals at or below it are history. */
    void discardUpTo(long seq) {
        firstSeen.keySet().removeIf(k -> k.seq() <= seq);
    }

    int size() {
        return firstSeen.size();
    }
}
