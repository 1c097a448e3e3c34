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
 *
 * <p>A tentative reply (PBFT's tentative execution: the executor ran the batch once it prepared) counts only
 * towards a quorum of 2f+1 (at least the policy's threshold) in which every tentative reply names one view: then f+1
 * correct executors prepared that batch in that view, one of them is in every view change's quorum, and the batch
 * commits there in every later view, so its result is final. Committed replies count towards both rules. While any
 * counted reply is tentative the vote stays open even if no rule holds yet (tentative replies of different views, or
 * too few): the client asks those executors again, and each one's answer after the commit replaces its tentative one.
 */
public final class Voter {

    public enum State { PENDING, ACCEPTED, INCONCLUSIVE }

    /** The voter's state after a reply; {@code result} and {@code view} are set once accepted. */
    public record Outcome(State state, byte[] result, int view) {
    }

    private final RequestId request;
    private final int executors;
    private final int threshold;
    private final int tentativeQuorum;
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
        this.tentativeQuorum = Math.max(threshold, 2 * f + 1);
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
        int[] committedViews = same.stream().filter(r -> !r.tentative()).mapToInt(Reply::view).sorted().toArray();
        int tentativeView = tentativeQuorumView(same, committedViews.length);
        if (committedViews.length >= threshold) {
            // The threshold-th highest view among the agreeing replies: vouched for by one correct executor.
            outcome = new Outcome(State.ACCEPTED, reply.result(), committedViews[committedViews.length - threshold]);
        } else if (tentativeView >= 0) {
            outcome = new Outcome(State.ACCEPTED, reply.result(), tentativeView);
        } else if (bySender.values().stream().noneMatch(Reply::tentative)
                && bestCount() + (executors - bySender.size()) < threshold) {
            outcome = new Outcome(State.INCONCLUSIVE, null, -1);
        }
        return outcome;
    }

    /** The view whose tentative replies, with the committed ones, make {@link #tentativeQuorum}; -1 if none. */
    private int tentativeQuorumView(List<Reply> same, int committed) {
        Map<Integer, Integer> perView = new HashMap<>();
        for (Reply r : same) {
            if (r.tentative() && perView.merge(r.view(), 1, Integer::sum) + committed >= tentativeQuorum) {
                return r.view();
            }
        }
        return -1;
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
