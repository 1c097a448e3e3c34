package org.bftws.config;

import java.time.Duration;

/**
 * What one party or one connection can make a replica hold or do (replicas.xml {@code <limits>}), with the defaults
 * an operator gets when the file is silent. Going over a limit is refused cheaply (a constant answer or a closed
 * connection) and counted; docs/configuration.md and docs/operations.md say which counter.
 *
 * @param maxQueuedConnections       accepted HTTP connections that may wait for a worker thread; more are answered
 *                                   with a constant 503 and closed
 * @param staleConnectionAfter       a queued connection that waited longer than this for a worker is closed unread:
 *                                   its client has given up and sent again ({@code null}: the group's clientTimeout)
 * @param refusalsPerSecondPerAddress refused messages answered per remote address and second (bursts of twice that);
 *                                   beyond it the connection is closed without an answer
 * @param maxSequencesPerClient      live WS-RM sequences one authenticated party may hold on a node
 * @param maxHeldExchangesPerClient  HTTP exchanges of one party a node holds waiting for their replies; beyond it the
 *                                   party's own oldest is released, never another party's
 */
public record LimitsConfig(int maxQueuedConnections, Duration staleConnectionAfter, int refusalsPerSecondPerAddress,
                           int maxSequencesPerClient, int maxHeldExchangesPerClient) {

    public static LimitsConfig defaults() {
        return new LimitsConfig(200, null, 50, 256, 32);
    }

    /** How long a queued connection may wait for a worker in a group whose clients wait {@code clientTimeout}. */
    public Duration staleConnectionAfter(Duration clientTimeout) {
        return staleConnectionAfter == null ? clientTimeout : staleConnectionAfter;
    }
}
