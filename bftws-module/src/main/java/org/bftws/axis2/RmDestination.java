package org.bftws.axis2;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.bft.TotalOrderInvoker;
import org.bftws.axis2.delivery.DeliveryWorker;
import org.bftws.axis2.delivery.HttpExchange;
import org.bftws.axis2.delivery.OrderingStep;
import org.bftws.axis2.delivery.PendingRequest;
import org.bftws.axis2.delivery.PendingRequests;
import org.bftws.axis2.delivery.SequenceOrderingStep;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.InboundSequence;
import org.bftws.rm.InboundSequences;
import org.bftws.rm.LastReplyCache;
import org.bftws.rm.ReplyCache;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server role of one Axis2 node: its inbound sequences, the requests waiting for delivery, the ordering step,
 * the delivery thread and the reply cache. The handlers and the control receiver call into it.
 */
public final class RmDestination {
    private static final Logger LOG = LoggerFactory.getLogger(RmDestination.class);

    private final NodeSettings settings;
    private final RmCounters counters;
    private final ScheduledExecutorService timer;
    private final InboundSequences sequences;
    private final PendingRequests pending = new PendingRequests();
    private ReplyCache replies;
    private OrderingStep ordering = new SequenceOrderingStep();
    private DeliveryWorker worker;
    /** BFT mode: requests to the replicated service go to PBFT's total order instead of per-sequence order. */
    private volatile TotalOrderInvoker totalOrder;
    private volatile String replicatedService;
    /** How long a replica holds an exchange for the replicated service: no longer than the client waits for it. */
    private volatile java.time.Duration replicatedHoldTimeout;

    RmDestination(NodeSettings settings, RmCounters counters, ScheduledExecutorService timer) {
        this.settings = settings;
        this.counters = counters;
        this.timer = timer;
        this.sequences = new InboundSequences(settings.maxSequences(), settings.window());
        this.replies = new LastReplyCache(settings.replyCacheDepth());
    }

    public InboundSequences sequences() {
        return sequences;
    }

    public ReplyCache replies() {
        return replies;
    }

    public OrderingStep ordering() {
        return ordering;
    }

    /** Requests accepted and not yet delivered. */
    public PendingRequests pending() {
        return pending;
    }

    /** Delivered requests so far (0 before the first). */
    public long deliveredCount() {
        return worker == null ? 0 : worker.delivered();
    }

    /**
     * Replaces the ordering step and the reply cache (BFT mode: the TotalOrderInvoker and the PBFT last-reply
     * table). Only before the first request was accepted.
     */
    public synchronized void replaceOrdering(OrderingStep step, ReplyCache cache) {
        if (worker != null) {
            throw new IllegalStateException("the ordering step can only be replaced before delivery started");
        }
        this.ordering = step;
        this.replies = cache;
    }

    /**
     * BFT mode: requests to {@code service} are ordered by PBFT through {@code invoker} (the paper's Total Order
     * Invoker) instead of being delivered in per-sequence order.
     */
    public void useTotalOrder(String service, TotalOrderInvoker invoker, java.time.Duration clientTimeout) {
        this.replicatedService = service;
        this.totalOrder = invoker;
        this.replicatedHoldTimeout = clientTimeout.compareTo(settings.holdTimeout()) < 0 ? clientTimeout
                : settings.holdTimeout();
    }

    /** The Total Order Invoker if requests to {@code service} are totally ordered, else null. */
    public TotalOrderInvoker totalOrderFor(String service) {
        return service != null && service.equals(replicatedService) ? totalOrder : null;
    }

    /** A new request: remember it, hold its exchange, hand it to the ordering step (or to PBFT in BFT mode). */
    void accept(InboundSequence seq, long n, MessageContext mc) {
        PendingRequest r = new PendingRequest(seq.id(), n, mc);
        HttpExchange x = HttpExchange.of(mc);
        if (x != null) {
            r.addExchange(x);
            holdWithTimeout(r, x);
        }
        pending.add(r);
        counters.accepted.incrementAndGet();
        TotalOrderInvoker total = totalOrderFor(seq.service());
        if (total != null) {
            total.submit(r);
            return;
        }
        startWorker();
        ordering.submit(r);
    }

    /**
     * BFT mode: a retransmitted request whose reply is no longer in the envelope cache (this replica may know it
     * only from a transferred checkpoint). It waits for the reply the core gives from its last-reply table.
     */
    boolean awaitReplyFromTotalOrder(InboundSequence seq, long n, MessageContext mc) {
        TotalOrderInvoker total = totalOrderFor(seq.service());
        HttpExchange x = HttpExchange.of(mc);
        if (total == null || x == null) {
            return false;
        }
        PendingRequest r = pending.find(seq.id(), n).orElseGet(() -> {
            PendingRequest fresh = new PendingRequest(seq.id(), n, mc);
            pending.add(fresh);
            return fresh;
        });
        if (!r.addExchange(x)) {
            return false;
        }
        holdWithTimeout(r, x);
        total.resubmit(new PendingRequest(seq.id(), n, mc));
        return true;
    }

    /** A copy of a request that is still waiting: it waits for the same reply. False: answer it otherwise. */
    boolean join(String seqId, long n, MessageContext mc) {
        PendingRequest r = pending.find(seqId, n).orElse(null);
        HttpExchange x = HttpExchange.of(mc);
        if (r == null || x == null || !r.addExchange(x)) {
            return false;
        }
        counters.duplicatesJoinedPending.incrementAndGet();
        holdWithTimeout(r, x);
        InboundSequence seq = sequences.find(seqId).orElse(null);
        TotalOrderInvoker total = seq == null ? null : totalOrderFor(seq.service());
        if (total != null) {
            // PBFT: a client retransmission is handed to the core again (it may have dropped or not yet seen it).
            total.resubmit(new PendingRequest(seqId, n, mc));
        }
        return true;
    }

    /** Answers an already delivered request from the cache; false when the reply is no longer kept. */
    boolean answerFromCache(String seqId, long n, MessageContext mc) throws AxisFault {
        CachedReply reply = replies.get(seqId, n).orElse(null);
        HttpExchange x = HttpExchange.of(mc);
        if (reply == null || x == null) {
            return false;
        }
        x.answerNow(reply);
        counters.duplicatesAnsweredFromCache.incrementAndGet();
        return true;
    }

    /** TerminateSequence: forget the sequence and answer whatever of it was still waiting. */
    void terminate(String seqId) {
        sequences.terminate(seqId);
        ordering.forget(seqId);
        if (totalOrder != null) {
            totalOrder.forget(seqId);
        }
        replies.forget(seqId);
        for (PendingRequest r : pending.removeSequence(seqId)) {
            CachedReply fault = FaultEnvelopes.serialise(r.message(),
                    RmFault.sequenceTerminated(seqId, "message " + r.messageNumber() + " was never delivered"));
            r.close().forEach(x -> x.answer(fault));
        }
        counters.sequencesTerminated.incrementAndGet();
    }

    private void holdWithTimeout(PendingRequest r, HttpExchange x) {
        InboundSequence seq = sequences.find(r.sequenceId()).orElse(null);
        java.time.Duration hold = seq != null && totalOrderFor(seq.service()) != null ? replicatedHoldTimeout
                : settings.holdTimeout();
        // The timer holds the request and its exchange weakly: a delivered request must not stay reachable (with
        // its message contexts and envelopes) for the whole hold time, or a node at a few hundred requests/s fills
        // its heap (seen: 256 MB gone after about 9,000 requests). An undelivered one is held by its sequence.
        java.lang.ref.WeakReference<PendingRequest> request = new java.lang.ref.WeakReference<>(r);
        java.lang.ref.WeakReference<HttpExchange> exchange = new java.lang.ref.WeakReference<>(x);
        timer.schedule(() -> holdExpired(request.get(), exchange.get(), hold), hold.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void holdExpired(PendingRequest r, HttpExchange x, java.time.Duration hold) {
        if (r != null && x != null) {
            if (!x.isAnswered()) {
                r.removeExchange(x);
                counters.holdTimeouts.incrementAndGet();
                LOG.info("{} not delivered within {}; answering its exchange with a fault", r, settings.holdTimeout());
                x.answer(FaultEnvelopes.serialise(r.message(), RmFault.notYetAvailable(r + " was not delivered within "
                        + hold.toMillis() + " ms (it is still being ordered, or an earlier message of its sequence is "
                        + "missing); retransmit it: once delivered it is answered from the reply cache")));
            }
        }
    }

    private synchronized void startWorker() {
        if (worker == null) {
            worker = new DeliveryWorker(ordering, new ServiceDelivery(), replies, pending,
                    (seqId, n) -> sequences.find(seqId).ifPresent(s -> s.delivered(n)));
            worker.start("bftws-delivery");
        }
    }

    void stop() throws InterruptedException {
        DeliveryWorker w;
        synchronized (this) {
            w = worker;
        }
        if (w != null) {
            w.stop();
        }
    }
}
