package org.bftws.axis2;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.bft.TotalOrderInvoker;
import org.bftws.axis2.delivery.DeliveryWorker;
import org.bftws.axis2.delivery.HeldExchanges;
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
    private final HeldExchanges held;
    private ReplyCache replies;
    private OrderingStep ordering = new SequenceOrderingStep();
    private DeliveryWorker worker;
    /** BFT mode: requests to the replicated service go to PBFT's total order instead of per-sequence order. */
    private volatile TotalOrderInvoker totalOrder;
    private volatile String replicatedService;
    private volatile boolean orderingOnly;
    /** BFT mode is due for this service (this node is one of its replicas) but its ordering has not started yet. */
    private volatile String expectedReplicatedService;
    /** How long a replica holds an exchange for the replicated service: no longer than the client waits for it. */
    private volatile java.time.Duration replicatedHoldTimeout;

    RmDestination(NodeSettings settings, RmCounters counters, ScheduledExecutorService timer) {
        this.settings = settings;
        this.counters = counters;
        this.timer = timer;
        this.sequences = new InboundSequences(settings.maxSequences(), settings.window());
        this.replies = new LastReplyCache(settings.replyCacheDepth());
        this.held = new HeldExchanges(settings.maxHeldExchanges());
        // one sweep for every hold timeout: a timer task per exchange would keep each answered request's message
        // context alive until its timeout, tens of thousands of them at a thousand requests a second
        timer.scheduleWithFixedDelay(this::expireHeldExchanges, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** How often held exchanges are checked for their hold timeout. */
    private static final long SWEEP_MILLIS = 100;

    /** Exchanges parked waiting for a reply. */
    public int heldExchanges() {
        return held.size();
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
    public void useTotalOrder(String service, TotalOrderInvoker invoker, java.time.Duration clientTimeout,
                              boolean executes) {
        this.orderingOnly = !executes;
        this.replicatedService = service;
        this.totalOrder = invoker;
        this.replicatedHoldTimeout = clientTimeout.compareTo(settings.holdTimeout()) < 0 ? clientTimeout
                : settings.holdTimeout();
    }

    /** Whether this node only orders {@code service}'s requests and never executes them (Configurations II, III). */
    public boolean orderingOnly(String service) {
        return orderingOnly && totalOrderFor(service) != null;
    }

    /**
     * This node is a replica of {@code service}'s group: until {@link #useTotalOrder} its requests must not be
     * delivered in plain WS-RM order (that would execute them outside PBFT's total order on this replica).
     */
    public void expectTotalOrder(String service) {
        this.expectedReplicatedService = service;
    }

    /** True while requests to {@code service} await the replica role's start (they are to be retried later). */
    public boolean awaitingTotalOrder(String service) {
        return totalOrder == null && service != null && service.equals(expectedReplicatedService);
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
        if (total != null && mc.getProperty(NestedAdmission.COPY) == null) {
            // PBFT: a client retransmission is handed to the core again (it may have dropped or not yet seen it).
            // Not a nested request's further copies: the admitted copy is in the core already.
            total.resubmit(new PendingRequest(seqId, n, mc));
        }
        return true;
    }

    /**
     * Sequence {@code seqId} keeps its last {@code depth} replies instead of the node's {@code replyCacheDepth}: a
     * caller group's virtual sequence, whose replicas may ask for old replies again (see NestedAdmission).
     */
    void keepReplies(String seqId, int depth) {
        if (replies instanceof LastReplyCache cache) {
            cache.keepDeeper(seqId, depth);
        }
    }

    private record CacheHit(HttpExchange exchange, CachedReply reply) {
    }

    private CacheHit cacheHit(String seqId, long n, MessageContext mc) {
        CachedReply reply = replies.get(seqId, n).orElse(null);
        HttpExchange x = HttpExchange.of(mc);
        if (reply == null || x == null) {
            return null;
        }
        counters.duplicatesAnsweredFromCache.incrementAndGet();
        return new CacheHit(x, reply);
    }

    /** Answers an already delivered request from the cache; false when the reply is no longer kept. */
    boolean answerFromCache(String seqId, long n, MessageContext mc) throws AxisFault {
        CacheHit hit = cacheHit(seqId, n, mc);
        if (hit == null) {
            return false;
        }
        hit.exchange().answerNow(hit.reply());
        return true;
    }

    /**
     * Answers a held copy (its worker thread parked in Axis2's awaitResponse after the flow was suspended) from the
     * cache: the answer must signal the parked worker, which answering "now" does not. False when not kept.
     */
    boolean answerHeldFromCache(String seqId, long n, MessageContext mc) {
        CacheHit hit = cacheHit(seqId, n, mc);
        if (hit == null) {
            return false;
        }
        hit.exchange().answer(hit.reply());
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
        java.time.Duration hold = holdTimeoutFor(r);
        for (HeldExchanges.Held h : held.hold(r, x, System.nanoTime() + hold.toNanos())) {
            counters.heldExchangesLetGo.incrementAndGet();
            LOG.debug("{}: more than {} exchanges held; answering the oldest, for {}, with a fault", r,
                    held.limit(), h.request());
            letGo(h, h.request() + " was not delivered yet and this node holds at most " + held.limit()
                    + " waiting exchanges");
        }
    }

    private java.time.Duration holdTimeoutFor(PendingRequest r) {
        InboundSequence seq = sequences.find(r.sequenceId()).orElse(null);
        return seq != null && totalOrderFor(seq.service()) != null ? replicatedHoldTimeout : settings.holdTimeout();
    }

    private void expireHeldExchanges() {
        try {
            for (HeldExchanges.Held h : held.expire(System.nanoTime())) {
                counters.holdTimeouts.incrementAndGet();
                java.time.Duration hold = holdTimeoutFor(h.request());
                LOG.info("{} not delivered within {}; answering its exchange with a fault", h.request(), hold);
                letGo(h, h.request() + " was not delivered within " + hold.toMillis() + " ms");
            }
        } catch (RuntimeException e) {
            LOG.warn("could not expire held exchanges: {}", e.toString(), e);
        }
    }

    /**
     * Answers a held exchange with the retry-later fault. A totally ordered request nobody waits for any more is
     * forgotten here (it is ordered and executed all the same; the invoker rebuilds its message from its bytes), so
     * a replica that fell behind keeps no message context for requests it cannot answer yet.
     */
    private void letGo(HeldExchanges.Held h, String why) {
        PendingRequest r = h.request();
        HttpExchange x = h.exchange();
        if (x.isAnswered()) {
            return;
        }
        r.removeExchange(x);
        x.answer(FaultEnvelopes.serialise(r.message(), RmFault.notYetAvailable(why + " (it is still being ordered, "
                + "or an earlier message of its sequence is missing); retransmit it: once delivered it is answered "
                + "from the reply cache")));
        InboundSequence seq = sequences.find(r.sequenceId()).orElse(null);
        TotalOrderInvoker total = seq == null ? null : totalOrderFor(seq.service());
        if (total != null && r.abandoned()) {
            pending.remove(r);
            total.release(r);
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
