package org.bftws.voting;

import java.util.concurrent.atomic.AtomicLong;

import org.bftws.security.RefusalCounter;

/**
 * What the client Voter did, for tests, operators and benchmarks. A dropped reply is also logged with its reason;
 * replies refused by authentication are counted per reason in {@link #refusals()} as well.
 */
public final class VotingCounters {
    /** Requests whose result f+1 (or the policy's number of) replicas agreed on. */
    public final AtomicLong decided = new AtomicLong();
    /** Requests whose replies can no longer reach the policy's threshold (e.g. ALL with one differing reply). */
    public final AtomicLong inconclusive = new AtomicLong();
    /** Requests that ended without a decision: every node answered or gave up, or the wait ran out. */
    public final AtomicLong undecided = new AtomicLong();
    /** Authentic replies that went to the Voter. */
    public final AtomicLong counted = new AtomicLong();
    /** Counted replies that were tentative (executed before their batch committed: docs/protocol.md). */
    public final AtomicLong tentative = new AtomicLong();
    /** Counted replies whose result differed from the one decided when the decision fell (Byzantine evidence). */
    public final AtomicLong dissenting = new AtomicLong();
    /** Replies dropped before the vote: not authentic, signed by the wrong party, or not a readable SOAP reply. */
    public final AtomicLong dropped = new AtomicLong();
    /** Replies that arrived after the decision, left unexamined. */
    public final AtomicLong late = new AtomicLong();
    /** Read-only requests accepted on 2f+1 identical replies, without ordering. */
    public final AtomicLong readsAccepted = new AtomicLong();
    /** Read-only requests sent again as ordered requests (no 2f+1 identical replies in time, or a fault). */
    public final AtomicLong readsFallenBack = new AtomicLong();
    private final RefusalCounter refusals = new RefusalCounter();

    /** Authentication refusals of replies, per reason. */
    public RefusalCounter refusals() {
        return refusals;
    }

    @Override
    public String toString() {
        return "decided=" + decided + " inconclusive=" + inconclusive + " undecided=" + undecided + " counted="
                + counted + " tentative=" + tentative + " dissenting=" + dissenting + " dropped=" + dropped + " late="
                + late + " readsAccepted=" + readsAccepted + " readsFallenBack=" + readsFallenBack;
    }
}
