package org.bftws.axis2.delivery;

import java.util.concurrent.TimeUnit;

/**
 * Decides WHICH accepted request is delivered to the service next. WS-RM-only mode uses
 * {@link SequenceOrderingStep} (in order within each sequence); BFT mode replaces it with the TotalOrderInvoker,
 * which hands out requests in PBFT total order, including requests whose body came from another replica.
 * Implementations are thread-safe: HTTP workers submit, the {@link DeliveryWorker} takes.
 */
public interface OrderingStep {

    /** A request arrived for the first time and was accepted by the RM layer. */
    void submit(PendingRequest request);

    /** The next request to deliver, waiting at most {@code timeout}; null when none became ready. */
    PendingRequest next(long timeout, TimeUnit unit) throws InterruptedException;

    /** The sequence was terminated: drop whatever of it still waits. */
    void forget(String sequenceId);
}
