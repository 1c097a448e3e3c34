package org.bftws.axis2.delivery;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.bftws.rm.SequenceOrder;

/** WS-RM InOrder delivery: each sequence's requests in message-number order, sequences interleaved as they come. */
public final class SequenceOrderingStep implements OrderingStep {

    private final SequenceOrder<PendingRequest> order = new SequenceOrder<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();

    @Override
    public void submit(PendingRequest request) {
        lock.lock();
        try {
            order.add(request.sequenceId(), request.messageNumber(), request);
            ready.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public PendingRequest next(long timeout, TimeUnit unit) throws InterruptedException {
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
