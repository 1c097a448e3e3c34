package org.bftws.axis2.delivery;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP exchanges parked until their request's reply is ready, oldest first, each with the time it must be
 * answered by. Every parked exchange holds one of the HTTP server's worker threads (Axis2's SimpleHTTPServer parks
 * the connection's thread until the response is signalled; it has 100 of them), and those threads also carry the
 * other replicas' PBFT messages. A replica that falls behind would otherwise park every worker on client requests it
 * cannot answer yet and then not receive the very messages that let it catch up; and it would keep every such
 * request's message context in memory. So at most {@code limit} exchanges are held: beyond it the oldest is let go
 * with the retry-later fault, like one that reached its hold timeout. And one party holds at most its own limit:
 * beyond it, that party's oldest is let go, never another party's, so a client cannot push out everyone else's
 * waiting calls. Thread-safe; answering happens outside.
 */
public final class HeldExchanges {

    /** A parked exchange and the request it waits for. */
    public record Held(PendingRequest request, HttpExchange exchange) {
    }

    private final int limit;
    /** Insertion order is arrival order; answered entries are dropped lazily (sweeps, or when over the limit). */
    private final LinkedHashMap<HttpExchange, Entry> held = new LinkedHashMap<>();

    private record Entry(PendingRequest request, long deadlineNanos, String party) {
    }

    public HeldExchanges(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("at least one exchange must be holdable");
        }
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }

    /** What {@link #hold(PendingRequest, HttpExchange, long, String, int)} lets go, and why. */
    public record Released(List<Held> overPartyLimit, List<Held> overNodeLimit) {
        public List<Held> evicted() {
            List<Held> all = new ArrayList<>(overPartyLimit);
            all.addAll(overNodeLimit);
            return all;
        }
    }

    /**
     * Parks {@code x} of {@code party} (null: not counted per party) until {@code deadlineNanos}; returns the
     * exchanges to let go now: the party's own oldest beyond {@code partyLimit}, then the node's oldest beyond its
     * limit.
     */
    public synchronized Released hold(PendingRequest r, HttpExchange x, long deadlineNanos, String party,
                                      int partyLimit) {
        held.put(x, new Entry(r, deadlineNanos, party));
        List<Held> party0 = List.of();
        if (party != null) {
            int count = 0;
            for (Map.Entry<HttpExchange, Entry> e : held.entrySet()) {
                if (party.equals(e.getValue().party()) && !e.getKey().isAnswered()) {
                    count++;
                }
            }
            if (count > partyLimit) {
                party0 = new ArrayList<>();
                Iterator<Map.Entry<HttpExchange, Entry>> it = held.entrySet().iterator();
                while (count > partyLimit && it.hasNext()) {
                    Map.Entry<HttpExchange, Entry> e = it.next();
                    if (party.equals(e.getValue().party()) && !e.getKey().isAnswered()) {
                        it.remove();
                        party0.add(new Held(e.getValue().request(), e.getKey()));
                        count--;
                    }
                }
            }
        }
        if (held.size() <= limit) {
            return new Released(party0, List.of());
        }
        held.keySet().removeIf(HttpExchange::isAnswered);
        List<Held> evicted = new ArrayList<>();
        Iterator<Map.Entry<HttpExchange, Entry>> it = held.entrySet().iterator();
        while (held.size() > limit && it.hasNext()) {
            Map.Entry<HttpExchange, Entry> e = it.next();
            it.remove();
            evicted.add(new Held(e.getValue().request(), e.getKey()));
        }
        return new Released(party0, evicted);
    }

    /** Forgets answered exchanges; removes and returns those whose deadline passed unanswered. */
    public synchronized List<Held> expire(long nowNanos) {
        List<Held> expired = new ArrayList<>();
        Iterator<Map.Entry<HttpExchange, Entry>> it = held.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<HttpExchange, Entry> e = it.next();
            if (e.getKey().isAnswered()) {
                it.remove();
            } else if (nowNanos - e.getValue().deadlineNanos() >= 0) {
                it.remove();
                expired.add(new Held(e.getValue().request(), e.getKey()));
            }
        }
        return expired;
    }

    /** Removes and returns every parked exchange not known to be answered yet (the node is stopping). */
    public synchronized List<Held> releaseAll() {
        List<Held> all = new ArrayList<>();
        held.forEach((x, e) -> {
            if (!x.isAnswered()) {
                all.add(new Held(e.request(), x));
            }
        });
        held.clear();
        return all;
    }

    /** Exchanges parked and not known to be answered yet. */
    public synchronized int size() {
        return (int) held.keySet().stream().filter(x -> !x.isAnswered()).count();
    }
}
