package org.bftws.core;

/**
 * How many identical replies from distinct executors a client waits for (per operation). BFT-WS's default is
 * {@link #WEAK_QUORUM}: f+1 identical replies include one from a correct executor. The others serve operations with
 * other needs (WS-Replication's first/majority/all; WebBFT's 2f+1). A policy changes only how many replies the
 * client waits for on an ordered request; a read-only request sent unordered is always accepted on 2f+1
 * (docs/protocol.md, "Read-only requests").
 */
public enum ReplyPolicy {
    /** The first reply: no Byzantine protection, for operations whose result the caller checks itself. */
    FIRST,
    /** f+1 identical replies: at least one from a correct executor (BFT-WS, PBFT). */
    WEAK_QUORUM,
    /** 2f+1 identical replies: a majority of correct executors agree. */
    STRONG_QUORUM,
    /** Identical replies from every executor: any disagreement makes the outcome inconclusive. */
    ALL;

    public int threshold(int f, int executors) {
        return switch (this) {
            case FIRST -> 1;
            case WEAK_QUORUM -> f + 1;
            case STRONG_QUORUM -> Math.min(2 * f + 1, executors);
            case ALL -> executors;
        };
    }
}
