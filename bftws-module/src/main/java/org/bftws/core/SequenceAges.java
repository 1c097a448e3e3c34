package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Client sequences by the agreed time up to which they count as active, so that those older than a cutoff are found
 * without scanning every sequence: an executed batch looks at what expires, not at every client. The order (time,
 * then identifier) is the deterministic order in which every node expires them.
 */
final class SequenceAges {

    private record Aged(long time, String client) implements Comparable<Aged> {
        @Override
        public int compareTo(Aged o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : client.compareTo(o.client);
        }
    }

    private final Map<String, Long> times = new HashMap<>();
    private final TreeSet<Aged> byTime = new TreeSet<>();

    /** {@code client} counts as active up to {@code time} ({@link Long#MAX_VALUE}: it never expires). */
    void put(String client, long time) {
        Long old = times.put(client, time);
        if (old != null) {
            byTime.remove(new Aged(old, client));
        }
        byTime.add(new Aged(time, client));
    }

    void remove(String client) {
        Long old = times.remove(client);
        if (old != null) {
            byTime.remove(new Aged(old, client));
        }
    }

    /** Removes and returns, oldest first, the clients whose time lies before {@code cutoff}. */
    List<String> removeOlderThan(long cutoff) {
        List<String> gone = new ArrayList<>();
        while (!byTime.isEmpty() && byTime.first().time() < cutoff) {
            Aged a = byTime.pollFirst();
            times.remove(a.client());
            gone.add(a.client());
        }
        return gone;
    }
}
