package org.bftws.axis2.ordering;

import org.bftws.ordering.ExecutionQueue;
import org.bftws.ordering.TotalOrderManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.delivery.PendingRequest;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.tier.NestedNumbering;
import org.bftws.core.Output;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.rm.InboundSequences;
import org.bftws.rm.ReplyCache;
import org.bftws.rm.ReplyCache.CachedReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.bftws.state.ExecutionState;

/**
 * The Total Order Invoker (paper 3.3.1.7). Requests accepted by the WS-RM layer (in order within their sequence)
 * go to the {@link TotalOrderManager}, which orders them; this thread then carries out what the core decides,
 * strictly in order and one at a time: it delivers each committed request through the service's own Axis2 message
 * receiver (the suspended message if it arrived here, else one built from the bytes another replica relayed), keeps
 * the reply's envelope for retransmissions, and reports the results; it delivers {@code get_state} for checkpoints
 * and {@code set_state} for state transfer at the head of the queue. A checkpoint's state also holds how far the
 * replica has numbered its group's nested calls ({@link ExecutionState}).
 */
public final class TotalOrderInvoker implements Runnable, org.bftws.axis2.delivery.OrderingStep {
    private static final Logger LOG = LoggerFactory.getLogger(TotalOrderInvoker.class);

    /** Message context property: the view a request was ordered in (the reply carries it to the client). */
    public static final String VIEW = "bftws.view";
    /** Request property: the request executes tentatively (its batch prepared, not committed); its reply says so. */
    public static final String TENTATIVE = "bftws.tentative";

    /** A request that arrived here, waiting to be ordered: its message and the digest the core knows it by. */
    private record Local(PendingRequest pending, Request request) {
    }

    /** A read-only request that arrived here, executed between two ordered executions (never during one). */
    private record Read(MessageContext message, org.bftws.axis2.delivery.HttpExchange exchange) {
    }

    /** The core's outputs, in its order, and read-only requests in arrival order between them. */
    private final ExecutionQueue work;
    private final AtomicLong reads = new AtomicLong();
    /** By sequence, then number: executing a number forgets the earlier ones of its sequence without a scan. */
    private final Map<String, java.util.concurrent.ConcurrentNavigableMap<Long, Local>> local =
            new ConcurrentHashMap<>();
    private final ServiceDelivery delivery = new ServiceDelivery();
    private final RequestContexts contexts;
    private final StateOperations state;
    private final ReplyCache envelopes;
    private final InboundSequences sequences;
    private final NestedNumbering numbering;
    private final AtomicLong executed = new AtomicLong();
    /** The service holds a tentative execution's effects (invoker thread only): reads wait in {@link #heldReads}. */
    private boolean tentativeState;
    private final List<Read> heldReads = new ArrayList<>();
    /** Answers the exchanges waiting here for a request just executed (the {@link ReplyRouter}). */
    private final java.util.function.BiConsumer<RequestId, CachedReply> answer;
    /** Told of every request this replica executed, after its reply was cached; multi-tier's gate listens. */
    private final Consumer<Request> onExecuted;
    /** False on agreement-only nodes: requests are only ordered, never delivered here. */
    private final boolean executes;
    /** How long the group's clients wait for an answer before they send again. */
    private final java.time.Duration clientTimeout;
    private final TotalOrderManager manager;
    private volatile boolean running = true;
    private Thread thread;

    TotalOrderInvoker(RequestContexts contexts, ReplyCache envelopes, InboundSequences sequences,
                      NestedNumbering numbering, boolean executes, java.time.Duration clientTimeout,
                      ExecutionQueue work, TotalOrderManager manager,
                      java.util.function.BiConsumer<RequestId, CachedReply> answer, Consumer<Request> onExecuted) {
        this.work = work;
        this.manager = manager;
        this.answer = answer;
        this.onExecuted = onExecuted;
        this.clientTimeout = clientTimeout;
        this.executes = executes;
        this.numbering = numbering;
        this.contexts = contexts;
        this.state = new StateOperations(contexts, delivery);
        this.envelopes = envelopes;
        this.sequences = sequences;
    }

    /** A request that arrived on this replica, accepted in order within its sequence: ordering begins. */
    @Override
    public void submit(PendingRequest p) {
        byte[] raw = RawRequestCapture.of(p.message());
        if (raw == null) {
            LOG.error("{} has no captured bytes (is the bftws message builder installed?); it cannot be ordered", p);
            return;
        }
        Request r = requestOf(p, raw);
        if (executes) {
            Local l = new Local(p, r);
            local.compute(r.id().client(), (c, of) -> {
                of = of != null ? of : new java.util.concurrent.ConcurrentSkipListMap<>();
                of.putIfAbsent(r.id().number(), l);
                return of;
            });
        }
        manager.onRequest(r);
    }

    /** A client retransmitted a request: hand it to the core again (it may be waiting, or answer from its table). */
    @Override
    public void resubmit(PendingRequest p) {
        byte[] raw = RawRequestCapture.of(p.message());
        if (raw != null) {
            manager.onRequest(requestOf(p, raw));
        }
    }

    /** The request as the core orders it: named by its bytes, or by the content its gate compared (a nested copy). */
    private static Request requestOf(PendingRequest p, byte[] raw) {
        RequestId id = new RequestId(p.sequenceId(), p.messageNumber());
        return p.message().getProperty(org.bftws.axis2.rm.RmDestination.REQUEST_IDENTITY) instanceof byte[] identity
                ? Request.identified(id, raw, identity) : Request.over(id, raw);
    }

    /**
     * A read-only request (docs/protocol.md, "Read-only requests"): this thread executes it after what it was given
     * before, against the state the ordered executions so far left, and answers {@code exchange} with the reply. It
     * changes nothing the replicas agree on: no order, no last-reply table, no WS-RM bookkeeping.
     */
    public void read(MessageContext message, org.bftws.axis2.delivery.HttpExchange exchange) {
        work.enqueueTask(new Read(message, exchange));
    }

    public long readsExecuted() {
        return reads.get();
    }

    public long executedRequests() {
        return executed.get();
    }

    @Override
    public long delivered() {
        return executed.get();
    }

    /** The core answers a retransmission from its last-reply table when the envelope cache forgot the reply. */
    @Override
    public boolean answersForgottenReplies() {
        return true;
    }

    /** No longer than the group's clients wait for an answer (their clientTimeout), nor the node's setting. */
    @Override
    public java.time.Duration holdTimeout(java.time.Duration nodeDefault) {
        return clientTimeout.compareTo(nodeDefault) < 0 ? clientTimeout : nodeDefault;
    }

    public int queued() {
        return work.size();
    }

    synchronized void start() {
        if (thread == null) {
            thread = new Thread(this, "bftws-total-order-invoker");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @Override
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

    @Override
    public void run() {
        while (running) {
            Object o;
            try {
                o = work.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (o instanceof Read r) {
                if (manager.halted() != null) {
                    // no state to read from: the client's other replicas answer (or the ordered request does)
                    if (r.exchange() != null) {
                        r.exchange().answer(null);
                    }
                } else if (tentativeState) {
                    heldReads.add(r); // PBFT answers reads from committed state only
                } else {
                    executeRead(r);
                }
                continue;
            }
            if (o instanceof Output.TentativeSettled t) {
                if (t.kept()) {
                    committedAgain();
                } // undone: the installation that follows puts a committed state back
                continue;
            }
            try {
                if (o instanceof Output.Execute e) {
                    execute(e);
                } else if (o instanceof Output.TakeCheckpoint t) {
                    manager.measurements().checkpointStarted(t.seq());
                    byte[] taken = ExecutionState.encode(numbering.numbers(), state.getState());
                    manager.onCheckpointState(t.seq(), manager.measurements().stateTaken(taken));
                } else if (o instanceof Output.InstallState s) {
                    long started = System.nanoTime();
                    ExecutionState.Parts parts = ExecutionState.decode(s.applicationState());
                    state.setState(parts.serviceState());
                    numbering.resume(parts.nestedNumbering());
                    manager.transferTrace().stateSet(s.seq(), System.nanoTime() - started);
                    committedAgain();
                    manager.onStateInstalled(s.seq());
                }
            } catch (AxisFault | RuntimeException e) {
                // The service failed to give or take its state (or a batch could not be delivered): its state is
                // unknown. The core executes nothing more here until a stable checkpoint from the others is installed.
                long seq = o instanceof Output.InstallState s ? s.seq() : o instanceof Output.TakeCheckpoint t ? t.seq()
                        : o instanceof Output.Execute x ? x.seq() : -1;
                String what = o instanceof Output.InstallState ? "set_state (installing the state at " + seq + ")"
                        : o instanceof Output.TakeCheckpoint ? "get_state (the checkpoint at " + seq + ")"
                        : "the execution of batch " + seq;
                LOG.error("could not carry out {}: {}; this replica executes nothing until it installs a stable "
                        + "checkpoint, which it fetches from the other replicas", what, e.toString(), e);
                manager.onExecutionFailed(seq, what + " failed: " + e.getMessage());
            }
        }
    }

    /** The service's state is committed again (a tentative execution kept, or a state installed): held reads run. */
    private void committedAgain() {
        tentativeState = false;
        List<Read> due = new ArrayList<>(heldReads);
        heldReads.clear();
        due.forEach(this::executeRead);
    }

    private void execute(Output.Execute e) throws AxisFault {
        List<byte[]> results = new ArrayList<>(e.requests().size());
        tentativeState |= e.tentative();
        for (Request r : e.requests()) {
            MessageContext mc = messageFor(r);
            mc.setProperty(VIEW, e.view());
            mc.setProperty(TENTATIVE, e.tentative());
            ServiceDelivery.DeliveredReply delivered = StateOperations.isSetState(mc)
                    ? delivery.refuse(mc, StateOperations.clientSetStateRefused(mc))
                    // calls the service makes meanwhile are the group's nested calls (paper 3.4)
                    : org.bftws.tier.NestedCallScope.executing(() -> delivery.deliverWithBodyElement(mc));
            CachedReply reply = delivered == null ? null : delivered.reply();
            byte[] result = reply == null ? new byte[0] : delivered.bodyElement() != null ? delivered.bodyElement()
                    : StateOperations.bodyElementBytes(reply.envelope());
            if (reply != null && !e.tentative()) {
                // a tentative reply is not the one to answer retransmissions with: they go to the core, whose
                // table answers them as committed once the batch is (and a rollback leaves nothing stale here)
                envelopes.put(r.id().client(), r.id().number(), reply);
            }
            sequences.find(r.id().client()).ifPresent(s -> s.deliveredThrough(r.id().number()));
            answer.accept(r.id(), reply);
            onExecuted.accept(r);
            executed.incrementAndGet();
            results.add(result);
        }
        manager.onExecuted(e.seq(), results);
    }

    private void executeRead(Read r) {
        CachedReply reply = null;
        try {
            reply = delivery.deliver(r.message()); // a service fault is captured as the reply
            reads.incrementAndGet();
        } catch (RuntimeException e) {
            // a read changes no agreed state: this replica goes on; the client falls back to the ordered request
            LOG.warn("read-only request {} failed: {}", r.message().getMessageID(), e.toString());
        }
        if (r.exchange() != null) {
            r.exchange().answer(reply);
        }
    }

    /** The suspended message if exactly this request arrived here, else one built from the relayed bytes. */
    private MessageContext messageFor(Request r) throws AxisFault {
        // Executing number k of a client settles every earlier number of it: those copies will never be delivered.
        Local[] found = new Local[1];
        local.computeIfPresent(r.id().client(), (c, of) -> {
            of.headMap(r.id().number()).clear();
            found[0] = of.remove(r.id().number());
            return of.isEmpty() ? null : of;
        });
        Local l = found[0];
        if (l != null && l.request().digest().equals(r.digest())) {
            return l.pending().message();
        }
        return contexts.fromBytes(r.id(), r.payload());
    }

    /**
     * Nobody waits here for {@code p} any more: its message context is let go. If it is executed later, its message
     * is built from its bytes, like a request that came from another replica.
     */
    @Override
    public boolean release(PendingRequest p) {
        local.computeIfPresent(p.sequenceId(), (c, of) -> {
            of.computeIfPresent(p.messageNumber(), (n, l) -> l.pending() == p ? null : l);
            return of.isEmpty() ? null : of;
        });
        return true;
    }

    /** Forgets requests of a terminated sequence that were never ordered. */
    @Override
    public void forget(String sequenceId) {
        local.remove(sequenceId);
    }
}
