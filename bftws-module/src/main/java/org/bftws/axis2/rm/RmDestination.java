package org.bftws.axis2.rm;

import org.bftws.axis2.settings.NodeSettings;
import org.bftws.rm.RmCounters;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.delivery.HeldExchanges;
import org.bftws.axis2.delivery.HttpExchange;
import org.bftws.axis2.delivery.OrderingStep;
import org.bftws.axis2.delivery.PendingRequest;
import org.bftws.axis2.delivery.PendingRequests;
import org.bftws.axis2.delivery.SequenceOrderingStep;
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
    /** Message context properties: the inbound sequence and message number of an accepted request. */
    public static final String SEQUENCE_ID = "bftws.inSequence";
    public static final String MESSAGE_NUMBER = "bftws.inMessageNumber";
    /**
     * Message context property of a nested copy: only the copy that completed the quorum enters PBFT; the others
     * (each signed by another caller replica, so different bytes) only wait for its reply, as more variants of one
     * request would crowd the core's per-request variants (and cost a digest each) for nothing.
     */
    public static final String NESTED_COPY = "bftws.nestedCopy";
    /**
     * Message context property of a request named by what its correct copies share rather than by its bytes (a nested
     * copy: see {@code Request.identified}): that content, as byte[].
     */
    public static final String REQUEST_IDENTITY = "bftws.requestIdentity";

    private static final Logger LOG = LoggerFactory.getLogger(RmDestination.class);

    private final NodeSettings settings;
    private final RmCounters counters;
    private final ScheduledExecutorService timer;
    private final InboundSequences sequences;
    private final PendingRequests pending = new PendingRequests();
    private final HeldExchanges held;
    /** Set once the node stops serving: nothing is held any more (see {@link #stopHolding()}). */
    private volatile boolean stopping;
    private final ReplyCache replies;
    /** Every service's requests but the replicated one's: WS-RM InOrder delivery. */
    private final OrderingStep inOrder;
    /** BFT mode: the replicated service's requests go to PBFT's total order (the TotalOrderInvoker) instead. */
    private volatile OrderingStep replicated;
    private volatile String replicatedService;
    private volatile boolean orderingOnly;
    /** BFT mode is due for this service (this node is one of its replicas) but its ordering has not started yet. */
    private volatile String expectedReplicatedService;

    public RmDestination(NodeSettings settings, RmCounters counters, ScheduledExecutorService timer) {
        this.settings = settings;
        this.counters = counters;
        this.timer = timer;
        this.sequences = new InboundSequences(settings.maxSequences(), settings.window());
        this.replies = new LastReplyCache(settings.replyCacheDepth());
        this.held = new HeldExchanges(settings.maxHeldExchanges());
        this.inOrder = new SequenceOrderingStep(replies, pending,
                (seqId, n) -> sequences.find(seqId).ifPresent(s -> s.delivered(n)));
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

    /** Requests accepted and not yet delivered. */
    public PendingRequests pending() {
        return pending;
    }

    /** Delivered requests so far, by either step (0 before the first). */
    public long deliveredCount() {
        OrderingStep r = replicated;
        return inOrder.delivered() + (r == null ? 0 : r.delivered());
    }

    /**
     * BFT mode: requests to {@code service} are ordered by PBFT through {@code step} (the paper's Total Order
     * Invoker) instead of being delivered in per-sequence order.
     */
    public void useTotalOrder(String service, OrderingStep step, boolean executes) {
        this.orderingOnly = !executes;
        this.replicatedService = service;
        this.replicated = step;
    }

    /** Whether this node only orders {@code service}'s requests and never executes them (Configurations II, III). */
    public boolean orderingOnly(String service) {
        return orderingOnly && replicates(service);
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
        return replicated == null && service != null && service.equals(expectedReplicatedService);
    }

    /** Whether {@code service}'s requests are totally ordered by PBFT here (this node is one of its replicas). */
    public boolean replicates(String service) {
        return replicated != null && service != null && service.equals(replicatedService);
    }

    /** The ordering step of {@code service}'s requests: PBFT's for the replicated service, else per-sequence order. */
    public OrderingStep orderingFor(String service) {
        return replicates(service) ? replicated : inOrder;
    }

    private OrderingStep orderingOf(String seqId) {
        InboundSequence seq = sequences.find(seqId).orElse(null);
        return orderingFor(seq == null ? null : seq.service());
    }

    /** A new request: remember it, hold its exchange, hand it to its service's ordering step. */
    public void accept(InboundSequence seq, long n, MessageContext mc) {
        PendingRequest r = new PendingRequest(seq.id(), n, mc);
        HttpExchange x = HttpExchange.of(mc);
        if (x != null) {
            r.addExchange(x);
            holdWithTimeout(r, x);
        }
        pending.addTakingOver(r);
        counters.accepted.incrementAndGet();
        orderingFor(seq.service()).submit(r);
    }

    /**
     * A retransmitted request whose reply is no longer in the envelope cache (a replica may know it only from a
     * transferred checkpoint): when its step still answers it (PBFT's last-reply table), it waits for that answer.
     */
    public boolean awaitReplyFromTotalOrder(InboundSequence seq, long n, MessageContext mc) {
        OrderingStep step = orderingFor(seq.service());
        HttpExchange x = HttpExchange.of(mc);
        if (!step.answersForgottenReplies() || x == null) {
            return false;
        }
        PendingRequest r = pending.addIfAbsent(new PendingRequest(seq.id(), n, mc));
        if (!r.addExchange(x)) {
            return false;
        }
        holdWithTimeout(r, x);
        step.resubmit(new PendingRequest(seq.id(), n, mc));
        return true;
    }

    /** A copy of a request that is still waiting: it waits for the same reply. False: answer it otherwise. */
    public boolean join(String seqId, long n, MessageContext mc) {
        PendingRequest r = pending.find(seqId, n).orElse(null);
        HttpExchange x = HttpExchange.of(mc);
        if (r == null || x == null || !r.addExchange(x)) {
            return false;
        }
        counters.duplicatesJoinedPending.incrementAndGet();
        holdWithTimeout(r, x);
        if (mc.getProperty(NESTED_COPY) == null) {
            // PBFT: a client retransmission is handed to the core again (it may have dropped or not yet seen it).
            // Not a nested request's further copies: the admitted copy is in the core already.
            orderingOf(seqId).resubmit(new PendingRequest(seqId, n, mc));
        }
        return true;
    }

    /**
     * Sequence {@code seqId} keeps its last {@code depth} replies instead of the node's {@code replyCacheDepth}: a
     * caller group's virtual sequence, whose replicas may ask for old replies again (see NestedAdmission).
     */
    public void keepReplies(String seqId, int depth) {
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
    public boolean answerFromCache(String seqId, long n, MessageContext mc) throws AxisFault {
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
    public boolean answerHeldFromCache(String seqId, long n, MessageContext mc) {
        CacheHit hit = cacheHit(seqId, n, mc);
        if (hit == null) {
            return false;
        }
        hit.exchange().answer(hit.reply());
        return true;
    }

    /** TerminateSequence: forget the sequence and answer whatever of it was still waiting. */
    public void terminate(String seqId) {
        terminate(seqId, 0);
        counters.sequencesTerminated.incrementAndGet();
    }

    /**
     * A replicated service's TerminateSequence, ordered as message {@code own} of its sequence, is executing: the
     * sequence is forgotten here like any terminated one, except that message, which its own reply answers.
     */
    public void terminateOrdered(String seqId, long own) {
        terminate(seqId, own);
        counters.sequencesTerminated.incrementAndGet();
    }

    /**
     * The replicas' ordered state says sequence {@code seqId} ended (a request on it was refused): whatever this
     * node took on again for it (a replayed request adopts the unknown sequence) is forgotten.
     */
    public void forgetEnded(String seqId) {
        terminate(seqId, 0);
    }

    private void terminate(String seqId, long own) {
        OrderingStep step = orderingOf(seqId);
        sequences.terminate(seqId);
        step.forget(seqId);
        replies.forget(seqId);
        for (PendingRequest r : pending.removeSequence(seqId)) {
            if (r.messageNumber() == own) {
                pending.add(r);
                continue;
            }
            CachedReply fault = FaultEnvelopes.serialise(r.message(),
                    RmFault.sequenceTerminated(seqId, "message " + r.messageNumber() + " was never delivered"));
            r.close().forEach(x -> x.answer(fault));
        }
    }

    private void holdWithTimeout(PendingRequest r, HttpExchange x) {
        java.time.Duration hold = holdTimeoutFor(r);
        String party = r.message().getProperty(org.bftws.security.AuthenticatedParty.PROPERTY)
                instanceof org.bftws.security.AuthenticatedParty p ? p.name() : null;
        HeldExchanges.Released released = held.hold(r, x, System.nanoTime() + hold.toNanos(), party,
                partyLimit(r));
        for (HeldExchanges.Held h : released.overPartyLimit()) {
            counters.heldExchangesOverPartyLimit.incrementAndGet();
            letGo(h, h.request() + " was not delivered yet and this node holds at most " + partyLimit(r)
                    + " waiting exchanges of " + party);
        }
        for (HeldExchanges.Held h : released.overNodeLimit()) {
            counters.heldExchangesLetGo.incrementAndGet();
            LOG.debug("{}: more than {} exchanges held; answering the oldest, for {}, with a fault", r,
                    held.limit(), h.request());
            letGo(h, h.request() + " was not delivered yet and this node holds at most " + held.limit()
                    + " waiting exchanges");
        }
        if (stopping) {
            letGoOfAll();
        }
    }

    /** The held exchanges one party may have on this node: its group's {@code <limits maxHeldExchangesPerClient>}. */
    private int partyLimit(PendingRequest r) {
        org.apache.axis2.description.AxisService service = r.message().getAxisService();
        return service == null ? Integer.MAX_VALUE : settings.replicas().groupByService(service.getName())
                .map(g -> g.limits().maxHeldExchangesPerClient()).orElse(Integer.MAX_VALUE);
    }

    private java.time.Duration holdTimeoutFor(PendingRequest r) {
        return orderingOf(r.sequenceId()).holdTimeout(settings.holdTimeout());
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
     * Answers a held exchange with the retry-later fault. A request nobody waits for any more is forgotten here when
     * its step allows (PBFT orders and executes it all the same, rebuilding its message from its bytes), so a replica
     * that fell behind keeps no message context for requests it cannot answer yet.
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
        if (r.abandoned() && orderingOf(r.sequenceId()).release(r)) {
            pending.remove(r);
        }
    }

    /**
     * The node is about to stop serving HTTP: every exchange held for a reply is answered now with the retry-later
     * fault, and so is every exchange held from now on, so no client reads the HTTP server's shutdown (Axis2
     * interrupting its parked workers) as this node's answer. A client that gets it asks another time or the other
     * replicas; whatever this node accepted is in its log and is answered from there when it runs again.
     */
    public void stopHolding() {
        stopping = true;
        letGoOfAll();
    }

    private void letGoOfAll() {
        for (HeldExchanges.Held h : held.releaseAll()) {
            letGo(h, h.request() + " was not delivered yet and this node is stopping");
        }
    }

    public void stop() throws InterruptedException {
        stopHolding();
        inOrder.stop();
    }
}
