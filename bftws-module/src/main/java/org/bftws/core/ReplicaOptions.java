package org.bftws.core;

/**
 * Protocol tunables of one node, all time spans in ticks (the adapter decides how long a tick is).
 *
 * @param checkpointInterval   K: a checkpoint after every K executed sequence numbers
 * @param watermarkWindow      L: sequence numbers in (h, h+L] are accepted, h the stable checkpoint; a multiple of K
 * @param batchMaxSize         a batch closes when it holds this many requests ...
 * @param batchDelayTicks      ... or when its oldest request waited this many ticks (0: propose at once)
 * @param maxBatchesInFlight   the primary proposes no new batch while this many of its batches are not committed
 * @param viewChangeTimeout    ticks a replica waits for progress on a pending request before suspecting the primary;
 *                             doubled for each consecutive view change
 * @param statusPeriod         ticks between status messages, which let peers retransmit what a stuck node lacks
 * @param fetchTimeout         ticks before a missing request body or state is asked for again, from another node
 * @param maxPendingPerClient  requests of one client kept waiting beyond its next expected number; more are dropped
 * @param clientWaitTicks      the primary waits up to this many ticks for clients that usually send again soon after
 *                             their last request committed, so they join the batch ({@link BatchPacing}; 0: never)
 * @param sequenceIdleLimit    milliseconds of agreed time after which an idle client sequence expires (0: never);
 *                             not ticks: agreed time is the primaries' clock readings in the batches
 * @param clockBound           milliseconds by which a new pre-prepare's time may differ from this node's clock
 *                             ({@link Node#onClock}) for this backup to prepare it
 * @param tentativeExecution   executors run a batch once it is prepared and every earlier one committed, and reply
 *                             tentatively (PBFT's tentative execution; docs/protocol.md); only where every agreement
 *                             node executes (Configurations I and II)
 */
public record ReplicaOptions(int checkpointInterval, int watermarkWindow, int batchMaxSize, int batchDelayTicks,
                             int maxBatchesInFlight, int viewChangeTimeout, int statusPeriod, int fetchTimeout,
                             int maxPendingPerClient, int clientWaitTicks, long sequenceIdleLimit, long clockBound,
                             boolean tentativeExecution) {

    public ReplicaOptions {
        require(checkpointInterval >= 1, "checkpointInterval must be at least 1");
        require(watermarkWindow >= checkpointInterval && watermarkWindow % checkpointInterval == 0,
                "watermarkWindow must be a positive multiple of checkpointInterval");
        require(batchMaxSize >= 1, "batchMaxSize must be at least 1");
        require(batchDelayTicks >= 0, "batchDelayTicks must not be negative");
        require(maxBatchesInFlight >= 1, "maxBatchesInFlight must be at least 1");
        require(viewChangeTimeout >= 1, "viewChangeTimeout must be at least 1 tick");
        require(statusPeriod >= 1, "statusPeriod must be at least 1 tick");
        require(fetchTimeout >= 1, "fetchTimeout must be at least 1 tick");
        require(maxPendingPerClient >= 1, "maxPendingPerClient must be at least 1");
        require(clientWaitTicks >= 0, "clientWaitTicks must not be negative");
        require(sequenceIdleLimit >= 0, "sequenceIdleLimit must not be negative");
        require(clockBound >= 0, "clockBound must not be negative");
    }

    /** Options without tentative execution. */
    public ReplicaOptions(int checkpointInterval, int watermarkWindow, int batchMaxSize, int batchDelayTicks,
                          int maxBatchesInFlight, int viewChangeTimeout, int statusPeriod, int fetchTimeout,
                          int maxPendingPerClient, int clientWaitTicks, long sequenceIdleLimit, long clockBound) {
        this(checkpointInterval, watermarkWindow, batchMaxSize, batchDelayTicks, maxBatchesInFlight, viewChangeTimeout,
                statusPeriod, fetchTimeout, maxPendingPerClient, clientWaitTicks, sequenceIdleLimit, clockBound, false);
    }

    /** Options without sequence expiry (sequences live until terminated), with a clock bound of 5 s. */
    public ReplicaOptions(int checkpointInterval, int watermarkWindow, int batchMaxSize, int batchDelayTicks,
                          int maxBatchesInFlight, int viewChangeTimeout, int statusPeriod, int fetchTimeout,
                          int maxPendingPerClient, int clientWaitTicks) {
        this(checkpointInterval, watermarkWindow, batchMaxSize, batchDelayTicks, maxBatchesInFlight, viewChangeTimeout,
                statusPeriod, fetchTimeout, maxPendingPerClient, clientWaitTicks, 0, DEFAULT_CLOCK_BOUND);
    }

    /** The clock bound when none is given: 5 s. */
    public static final long DEFAULT_CLOCK_BOUND = 5_000;

    /** These options with sequence expiry: idle sequences expire after {@code idleLimit} ms of agreed time. */
    public ReplicaOptions withSequenceExpiry(long idleLimit, long bound) {
        return new ReplicaOptions(checkpointInterval, watermarkWindow, batchMaxSize, batchDelayTicks, maxBatchesInFlight,
                viewChangeTimeout, statusPeriod, fetchTimeout, maxPendingPerClient, clientWaitTicks, idleLimit, bound,
                tentativeExecution);
    }

    /** These options with tentative execution on or off. */
    public ReplicaOptions withTentativeExecution(boolean on) {
        return new ReplicaOptions(checkpointInterval, watermarkWindow, batchMaxSize, batchDelayTicks, maxBatchesInFlight,
                viewChangeTimeout, statusPeriod, fetchTimeout, maxPendingPerClient, clientWaitTicks, sequenceIdleLimit,
                clockBound, on);
    }

    /** Options whose primary never waits for returning clients (the batch closes by size and delay only). */
    public ReplicaOptions(int checkpointInterval, int watermarkWindow, int batchMaxSize, int batchDelayTicks,
                          int maxBatchesInFlight, int viewChangeTimeout, int statusPeriod, int fetchTimeout,
                          int maxPendingPerClient) {
        this(checkpointInterval, watermarkWindow, batchMaxSize, batchDelayTicks, maxBatchesInFlight, viewChangeTimeout,
                statusPeriod, fetchTimeout, maxPendingPerClient, 0);
    }

    private static void require(boolean ok, String problem) {
        if (!ok) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Defaults for a tick of 1 ms. */
    public static ReplicaOptions defaults() {
        return new ReplicaOptions(128, 256, 64, 0, 2, 1000, 200, 100, 64, 100);
    }
}
