package org.bftws.sim;

/** Ways a Byzantine node in the simulator misbehaves. It runs the real protocol and tampers with what it sends. */
public enum Behavior {
    /** As primary, sends different pre-prepares for one sequence number to different backups. */
    EQUIVOCATE,
    /** Prepares and commits carry random digests. */
    WRONG_DIGESTS,
    /** Pre-prepares and votes name requests no client ever sent. */
    PHANTOM_REQUESTS,
    /** Resends old messages (its own and others' signed ones) to random nodes. */
    REPLAY,
    /** Sends nothing while it is the primary. */
    SILENT_PRIMARY,
    /** As primary, holds every pre-prepare back until just before the backups' timeout. */
    SLOW_PRIMARY,
    /** View-changes carry fabricated prepared certificates (prepares forged in other nodes' names, or too few). */
    FAKE_CERTIFICATES,
    /** Checkpoints carry random state digests. */
    WRONG_CHECKPOINTS,
    /** Replies to clients carry wrong results. */
    WRONG_REPLIES,
    /** State snapshots it serves are corrupted. */
    BAD_STATE,
    /**
     * Its gate lets in a nested request that only one (faulty) caller replica sent, validly signed, which no correct
     * replica's gate ever admits (paper 3.4): as primary, it proposes that request. Drawn apart from the others (see
     * ScenarioGenerator), so adding it changed no earlier seed's schedule.
     */
    SMUGGLE_NESTED,
    /**
     * Requests authenticated with MACs: claims (signed ones too) requests no client sent, and claims the requests it
     * does hold only to some nodes. Drawn with the request-authentication mode, from a stream of its own.
     */
    LYING_CLAIMS,
    /** Requests authenticated with MACs: never claims nor signs a claim for any request. */
    WITHHELD_CLAIMS,
    /**
     * Sequence expiry: its clock lies beyond the backups' bound (far ahead or behind), so as primary it stamps
     * batches with a time that would expire every sequence at once, or none. Drawn with the expiry settings, from a
     * stream of their own.
     */
    LYING_CLOCK
}
