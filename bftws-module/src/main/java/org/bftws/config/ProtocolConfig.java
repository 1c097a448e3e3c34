package org.bftws.config;

import java.time.Duration;

/**
 * Tunables of ordering, reliable messaging and the client, with the defaults an operator gets when replicas.xml is
 * silent.
 *
 * @param checkpointInterval      K: a checkpoint after every K executed sequence numbers
 * @param watermarkWindow         L: sequence numbers accepted lie in (stable checkpoint, stable checkpoint + L]
 * @param batchMaxSize            a batch closes when it holds this many requests ...
 * @param batchMaxDelay           ... or when its first request has waited this long
 * @param maxBatchesInFlight      the primary proposes no more batches while this many are not yet committed
 * @param viewChangeTimeout       how long a backup waits for a pending request before it suspects the primary;
 *                                doubles with every consecutive view change
 * @param retransmissionInterval  WS-RM: first retransmission after this long, then exponential backoff
 * @param maxRetransmissions      WS-RM: give up on a destination after this many retransmissions
 * @param clientTimeout           how long a client waits for f+1 matching replies before it retransmits to all
 * @param batchWaitForClients     how long the primary may hold a batch back for clients that usually send their next
 *                                request soon after the last one committed (0: never; core {@code BatchPacing})
 * @param sequenceIdleLimit       a client sequence idle for longer than this (on the replicas' agreed time) expires by
 *                                an ordered decision, and its last-reply entry goes on every replica (0: never)
 * @param clockSkewBound          a backup prepares a primary's new batch only if the batch's time (the primary's clock)
 *                                lies within this of its own clock; the replicas' clocks must agree better than this
 * @param tentativeExecution      PBFT's tentative execution: executors run a batch once it is prepared and every earlier
 *                                one committed, and reply tentatively (one message delay less per call); only where
 *                                every executor orders (Configurations I and II) and the group makes no nested calls
 */
public record ProtocolConfig(int checkpointInterval, int watermarkWindow, int batchMaxSize, Duration batchMaxDelay,
                             int maxBatchesInFlight, Duration viewChangeTimeout, Duration retransmissionInterval,
                             int maxRetransmissions, Duration clientTimeout, Duration batchWaitForClients,
                             Duration sequenceIdleLimit, Duration clockSkewBound, boolean tentativeExecution) {

    public static ProtocolConfig defaults() {
        return new ProtocolConfig(128, 256, 64, Duration.ofMillis(2), 1, Duration.ofSeconds(1),
                Duration.ofMillis(500), 8, Duration.ofSeconds(3), Duration.ofMillis(100), Duration.ofHours(1),
                Duration.ofSeconds(5), false);
    }
}
