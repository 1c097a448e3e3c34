package org.bftws.axis2.delivery;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.bftws.rm.SequenceOrder;

/**
 * WS-RM InOrder delivery: each sequence's requests in message-number order, sequences interleaved as they come, by
 * one {@link DeliveryWorker} thread that starts with the first request.
 */
public final class SequenceOrderingStep implements OrderingStep {

    private final SequenceOrder<PendingRequest> order = new SequenceOrder<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final DeliveryWorker worker;
    private boolean started;

    /**
     * @param replies   where each reply is kept for retransmissions
     * @param pending   the RM layer's requests waiting for delivery (a delivered one is removed)
     * @param delivered told (sequence, message number) after each delivery, before exchanges are answered
     */
    public SequenceOrderingStep(org.bftws.rm.ReplyCache replies, PendingRequests pending,
                                java.util.function.BiConsumer<String, Long> delivered) {
        this.worker = new DeliveryWorker(this, new ServiceDelivery(), replies, pending, delivered);
    }

    @Override
    public void submit(PendingRequest request) {
        synchronized (worker) {
            if (!started) {
                started = true;
                worker.start("bftws-delivery");
            }
        }
        lock.lock();
        try {
            order.add(request.sequenceId(), request.messageNumber(), request);
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public long delivered() {
        return worker.delivered();
    }

    @Override
    public void stop() throws InterruptedException {
        worker.stop();
    }

    /** The next request to deliver, waiting at most {@code timeout}; null when none became ready. */
    PendingRequest next(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        lock.lock();
        try {
            while (true) {
                var r = order.poll();
                if (r.isPresent()) {
                    return r.get().item();
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                ready.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void forget(String sequenceId) {
        lock.lock();
        try {
            order.forget(sequenceId);
        } finally {
            lock.unlock();
        }
    }

    /** Requests held back because an earlier message of their sequence has not arrived. */
    public int buffered() {
        lock.lock();
        try {
            return order.buffered();
        } finally {
            lock.unlock();
        }
    }
}
