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
 * with the retry-later fault, like one that reached its hold timeout. Thread-safe; answering happens outside.
 */
public final class HeldExchanges {

    /** A parked exchange and the request it waits for. */
    public record Held(PendingRequest request, HttpExchange exchange) {
    }

    private final int limit;
    /** Insertion order is arrival order; answered entries are dropped lazily (sweeps, or when over the limit). */
    private final LinkedHashMap<HttpExchange, Entry> held = new LinkedHashMap<>();

    private record Entry(PendingRequest request, long deadlineNanos) {
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

    /** Parks {@code x} until {@code deadlineNanos}; returns the exchanges to let go now to stay within the limit. */
    public synchronized List<Held> hold(PendingRequest r, HttpExchange x, long deadlineNanos) {
        held.put(x, new Entry(r, deadlineNanos));
        if (held.size() <= limit) {
            return List.of();
        }
        held.keySet().removeIf(HttpExchange::isAnswered);
        List<Held> evicted = new ArrayList<>();
        Iterator<Map.Entry<HttpExchange, Entry>> it = held.entrySet().iterator();
        while (held.size() > limit && it.hasNext()) {
            Map.Entry<HttpExchange, Entry> e = it.next();
            it.remove();
            evicted.add(new Held(e.getValue().request(), e.getKey()));
        }
        return evicted;
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

    /** Exchanges parked and not known to be answered yet. */
    public synchronized int size() {
        return (int) held.keySet().stream().filter(x -> !x.isAnswered()).count();
    }
}
