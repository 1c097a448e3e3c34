package org.bftws.axis2.delivery;

import java.time.Duration;

/**
 * The one way a request reaches its service: the step decides which accepted request is delivered next and delivers
 * it. WS-RM-only mode uses {@link SequenceOrderingStep} (in order within each sequence); a replica of a BFT group uses
 * the TotalOrderInvoker for its replicated service (PBFT's total order, including requests whose body came from
 * another replica). The RM layer ({@code RmDestination}) accepts requests, holds their exchanges and hands everything
 * else to the step of the request's service. Implementations are thread-safe: HTTP workers call them.
 */
public interface OrderingStep {

    /** A request arrived for the first time and was accepted by the RM layer. */
    void submit(PendingRequest request);

    /**
     * A copy of a request that is still waiting, or whose reply this node no longer caches, arrived again. PBFT hands
     * it to the core again (it may have dropped it, or answers it from its last-reply table); per-sequence delivery
     * has nothing to do.
     */
    default void resubmit(PendingRequest copy) {
    }

    /**
     * Whether a delivered request whose reply the cache forgot is still answered by this step ({@link #resubmit}
     * then leads to the reply); false: the request is answered "reply forgotten".
     */
    default boolean answersForgottenReplies() {
        return false;
    }

    /**
     * Nobody waits here for {@code request} any more (its exchanges timed out). True when the RM layer may forget it:
     * the step delivers it from its bytes if it ever must (PBFT); false: the step still delivers this very request.
     */
    default boolean release(PendingRequest request) {
        return false;
    }

    /** The sequence was terminated: drop whatever of it still waits. */
    void forget(String sequenceId);

    /** How long an exchange waiting for one of this step's requests may be held, given the node's setting. */
    default Duration holdTimeout(Duration nodeDefault) {
        return nodeDefault;
    }

    /** Requests delivered to the service so far. */
    long delivered();

    void stop() throws InterruptedException;
}
