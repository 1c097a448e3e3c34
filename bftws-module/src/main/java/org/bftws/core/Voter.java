package org.bftws.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client-side voter for one request (paper 3.3.1.5): it accepts a result once enough executors returned it
 * identically (see {@link ReplyPolicy}). Each executor's first reply counts; a second, different one from the same
 * executor is Byzantine and ignored. Results are compared by digest, so the adapter passes the canonical bytes of
 * the reply body.
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
                || !eligible.contains(reply.sender()) || bySender.containsKey(reply.sender())) {
            return outcome;
        }
        bySender.put(reply.sender(), reply);
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
