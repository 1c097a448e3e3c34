package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client-side voter for one request (paper 3.3.1.5): it accepts a result once enough executors returned it
 * identically (see {@link ReplyPolicy}). Each executor counts once, with its latest reply: a correct executor's
 * answer to a retransmitted request may change, truthfully, once the request's sequence is forgotten (its reply
 * "executed" becomes "expired", "terminated" becomes "expired"), and a voter that kept first answers would be split
 * for good between executors on either side of that point (simulator seed 77006, 2026-11-27). Safety does not
 * depend on it: whatever a faulty executor says, it is one vote, and f+1 agreeing executors include a correct one.
 * Results are compared by digest, so the adapter passes the canonical bytes of the reply body.
 */
public final class Voter {

    public enum State { PENDING, ACCEPTED, INCONCLUSIVE }

    /** The voter's state after a reply; {@code result} and {@code view} are set once accepted. */
    public record Outcome(State state, byte[] result, int view) {
    }

    private final RequestId request;
    private final int executors;
    private final int threshold;
    private final Set<Integer> eligible;
    private final Map<Integer, Reply> bySender = new HashMap<>();
    private final Map<Digest, List<Reply>> byResult = new HashMap<>();
    private Outcome outcome = new Outcome(State.PENDING, null, -1);

    /**
     * @param eligible the ids of the executors whose replies count (anything else is ignored)
     */
    public Voter(RequestId request, int f, Set<Integer> eligible, ReplyPolicy policy) {
        this.request = request;
        this.eligible = new HashSet<>(eligible);
        this.executors = eligible.size();
        this.threshold = policy.threshold(f, executors);
    }

    public Outcome outcome() {
        return outcome;
    }

    /** Counts a reply authenticated as coming from executor {@code reply.sender()}. */
    public Outcome add(Reply reply) {
        if (outcome.state() != State.PENDING || !reply.request().equals(request)
                || !eligible.contains(reply.sender())) {
            return outcome;
        }
        Reply earlier = bySender.put(reply.sender(), reply);
        if (earlier != null) {
            List<Reply> was = byResult.get(earlier.resultDigest());
            was.remove(earlier);
            if (was.isEmpty()) {
                byResult.remove(earlier.resultDigest());
            }
        }
        List<Reply> same = byResult.computeIfAbsent(reply.resultDigest(), d -> new ArrayList<>());
        same.add(reply);
        if (same.size() >= threshold) {
            // The threshold-th highest view among the agreeing replies: vouched for by one correct executor.
            int[] views = same.stream().mapToInt(Reply::view).sorted().toArray();
            outcome = new Outcome(State.ACCEPTED, reply.result(), views[views.length - threshold]);
        } else if (bestCount() + (executors - bySender.size()) < threshold) {
            outcome = new Outcome(State.INCONCLUSIVE, null, -1);
        }
        return outcome;
    }

    private int bestCount() {
        int best = 0;
        for (List<Reply> l : byResult.values()) {
            best = Math.max(best, l.size());
        }
        return best;
    }

    public int repliesReceived() {
        return bySender.size();
    }
}
