package org.bftws.axis2.delivery;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import org.bftws.rm.ReplyCache;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The invoker thread of WS-RM-only delivery (the paper's InOrder invoker): takes the next request from the
 * {@link SequenceOrderingStep}, delivers it, keeps the reply in the {@link ReplyCache}, tells the RM layer, and answers
 * every HTTP exchange waiting for it. One thread, so the service sees one request at a time, in the chosen order.
 */
public final class DeliveryWorker implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryWorker.class);

    private final SequenceOrderingStep ordering;
    private final ServiceDelivery delivery;
    private final ReplyCache replies;
    private final BiConsumer<String, Long> delivered;
    private final PendingRequests pending;
    private final AtomicLong count = new AtomicLong();
    private volatile boolean running = true;
    private Thread thread;

    /**
     * @param delivered told (sequence, message number) after each delivery, before exchanges are answered, so a
     *                  retransmission arriving from then on is recognised as already delivered
     */
    DeliveryWorker(SequenceOrderingStep ordering, ServiceDelivery delivery, ReplyCache replies,
                          PendingRequests pending, BiConsumer<String, Long> delivered) {
        this.ordering = ordering;
        this.delivery = delivery;
        this.replies = replies;
        this.pending = pending;
        this.delivered = delivered;
    }

    public synchronized void start(String name) {
        if (thread == null) {
            thread = new Thread(this, name);
            thread.setDaemon(true);
            thread.start();
        }
    }

    public void stop() throws InterruptedException {
        running = false;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            t.interrupt();
            t.join(5_000);
        }
    }

    /** Requests delivered so far. */
    public long delivered() {
        return count.get();
    }

    @Override
    public void run() {
        while (running) {
            try {
                PendingRequest r = ordering.next(500, TimeUnit.MILLISECONDS);
                if (r != null) {
                    deliverOne(r);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("delivery failed unexpectedly; the worker goes on", e);
            }
        }
    }

    private void deliverOne(PendingRequest r) {
        CachedReply reply = delivery.deliver(r.message());
        if (reply != null) {
            replies.put(r.sequenceId(), r.messageNumber(), reply);
        }
        delivered.accept(r.sequenceId(), r.messageNumber());
        count.incrementAndGet();
        pending.remove(r);
        List<HttpExchange> waiting = r.close();
        for (HttpExchange x : waiting) {
            x.answer(reply);
        }
    }
}
