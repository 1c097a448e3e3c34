package org.bftws.ordering;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Message;
import org.bftws.core.Node;
import org.bftws.core.Output;
import org.bftws.core.Reply;
import org.bftws.core.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.bftws.state.Journal;
import org.bftws.metrics.Measurements;
import org.bftws.metrics.TransferTrace;
import org.bftws.metrics.ViewChangeTrace;

/**
 * The Total Order Manager (paper 3.3.1.8): runs this replica's PBFT state machine ({@link Node}, the pure core) on
 * real threads. Every input (a client request from the invoker, a frame or bundle of PBFT messages from the replica
 * channel, a timer tick, an execution result) is handed to the core under one lock; the outputs are routed in the core's order:
 * messages to the peers' channels, executions, checkpoints and state installs to the Total Order Invoker's
 * queue, replies to waiting clients through the reply router ({@link ClientReplies}). Routing only enqueues, so the lock is never
 * held across I/O.
 */
public final class TotalOrderManager {
    private static final Logger LOG = LoggerFactory.getLogger(TotalOrderManager.class);

    private final Node core;
    private final String name;
    private final ReplicaChannel channels;
    private final ExecutionQueue invoker;
    private final ClientReplies replies;
    private final Runnable onStable;
    /** The data directory, or null: then nothing survives a restart (the node then counts as faulty if restarted). */
    private final Journal journal;
    private final OrderingHooks hooks;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bftws-pbft-ticks");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private final Measurements measurements;
    private final ViewChangeTrace trace;
    private final TransferTrace transferTrace;
    private volatile long lastStable;
    /** Owned by the ticker thread (read under the lock by it only). */
    private TickClock clock;
    private volatile int view;
    /** The core's last executed sequence number as of its last outputs (like {@link #view}), for lock-free reads. */
    private volatile long lastExecuted;

    /**
     * Why this replica executes nothing: its service could not carry out the output at {@code seq} (a state it
     * could not install, a get_state that failed), since {@code sinceMillis} (wall clock).
     */
    public record Halt(long seq, String reason, long sinceMillis) {
    }

    /** How often the ERROR line saying this replica executes nothing is repeated while it lasts. */
    public static final java.time.Duration HALT_LOG_PERIOD = java.time.Duration.ofSeconds(10);
    private volatile Halt halted;
    /** When a dropped view-change or new-view was last logged at INFO (System.nanoTime; guarded by this). */
    private long viewDropLoggedAt = System.nanoTime() - 1_000_000_000L;
    /** Set by {@link #stop()}: the core's outputs are discarded from then on (guarded by this). */
    private boolean stopped;
    /** When the halt was last logged (System.nanoTime; the ticker thread's, after the first). */
    private volatile long haltLoggedAt;

    public TotalOrderManager(Node core, String name, ReplicaChannel channels, ExecutionQueue invoker, ClientReplies replies,
                      Runnable onStable, Journal journal, OrderingHooks hooks) {
        this.core = core;
        this.hooks = hooks;
        this.journal = journal;
        this.name = name;
        this.channels = channels;
        this.invoker = invoker;
        this.replies = replies;
        this.onStable = onStable;
        this.measurements = new Measurements(core.id());
        this.trace = new ViewChangeTrace(name, core.id(), System::nanoTime);
        this.transferTrace = new TransferTrace(name, core.id(), System::nanoTime);
    }

    /** Recovers the core from the data directory (before {@link #start()}); a first start recovers nothing. */
    public void recover() {
        if (journal == null) {
            return;
        }
        org.bftws.core.DurableState state = journal.recovered();
        if (!state.isEmpty()) {
            LOG.warn("{}: recovering from its data directory: checkpoint {}, {} committed and {} prepared batches after it, "
                    + "view {}", name, state.checkpoint() == null ? 0 : state.checkpoint().seq(), state.committed().size(),
                    state.prepared().size(), state.view());
        }
        synchronized (this) {
            route(core.onClock(WallClock.millis())); // before anything it may propose
            route(core.recover(state.withRequests(hooks.identity()::identify)));
        }
    }

    public void start() {
        synchronized (this) {
            // the clock before the first request: a batch stamped 0 would be refused by every backup
            route(core.onClock(WallClock.millis()));
        }
        long tick = CoreOptions.TICK.toNanos();
        clock = new TickClock(tick, System.nanoTime());
        ticker.scheduleWithFixedDelay(this::onTick, tick, tick, TimeUnit.NANOSECONDS);
    }

    /**
     * Stops the ticks and closes the journal. Inputs still arriving (the channels' receivers, the invoker's last
     * execution) reach the core, but what it answers is neither written nor sent: the node is going, and nothing may
     * leave it that its journal does not hold.
     */
    public void stop() {
        ticker.shutdownNow();
        synchronized (this) {
            stopped = true;
            if (journal != null) {
                journal.close();
            }
        }
    }

    public void onRequest(Request r) {
        synchronized (this) {
            route(core.onRequest(r));
        }
    }

    /**
     * Hands the relayed bodies that the gate recognises to the core as admitted requests; returns the message with
     * the rest (null when none is left).
     */
    private Message admitRelayedCopies(org.bftws.core.ForwardedRequests fw, List<Output> outputs) {
        List<Request> rest = new java.util.ArrayList<>();
        for (Request r : fw.requests()) {
            if (hooks.relayedNestedCopyAdmitted().test(r)) {
                count("relayed nested copies admitted");
                outputs.addAll(core.onRequest(r));
            } else if (hooks.relayedRequestAuthenticated().test(r)) {
                count("relayed requests authenticated here");
                outputs.addAll(core.onRequest(r));
            } else {
                rest.add(r);
            }
        }
        return rest.size() == fw.requests().size() ? fw
                : rest.isEmpty() ? null : new org.bftws.core.ForwardedRequests(rest, fw.sender());
    }

    /**
     * Several messages (a peer's bundle) in one go: the core takes them in order and their outputs are routed
     * together, so the journal forces what they make durable to disk once, before any of their messages leaves.
     * Forcing after each message cost a sync per prepared slot (1-10 ms each here), which added up to hundreds of
     * milliseconds when a new view re-proposes a log of prepared slots.
     */
    public void onMessages(List<Message> messages) {
        if (messages.isEmpty()) {
            return;
        }
        transferTrace.received(messages);
        synchronized (this) {
            List<Output> outputs = new java.util.ArrayList<>();
            for (Message m : messages) {
                if (m instanceof org.bftws.core.ForwardedRequests fw) {
                    m = admitRelayedCopies(fw, outputs);
                    if (m == null) {
                        continue;
                    }
                }
                outputs.addAll(core.onMessage(m));
            }
            route(outputs);
        }
    }

    public void onExecuted(long seq, List<byte[]> results) {
        synchronized (this) {
            route(core.onExecuted(seq, results));
        }
    }

    public void onCheckpointState(long seq, byte[] state) {
        synchronized (this) {
            route(core.onCheckpointState(seq, state));
        }
    }

    public void onStateInstalled(long seq) {
        synchronized (this) {
            route(core.onStateInstalled(seq));
            Halt h = halted;
            if (h != null && core.lastExecuted() >= h.seq()) {
                halted = null;
                LOG.warn("{}: executes again: installed the state at {} (it had executed nothing since {} s, at {}: {})",
                        name, seq, (System.currentTimeMillis() - h.sinceMillis()) / 1000, h.seq(), h.reason());
            }
        }
    }

    /**
     * The service could not carry out the invoker's output at {@code seq} ({@link org.bftws.core.Node#onExecutionFailed}):
     * this replica executes nothing until it has installed a stable checkpoint at or above {@code seq}, which the
     * core fetches from the other replicas. Until then {@link #halted()} says why, and an ERROR line repeats it every
     * {@link #HALT_LOG_PERIOD}.
     */
    public void onExecutionFailed(long seq, String reason) {
        synchronized (this) {
            Halt h = halted;
            halted = new Halt(seq, reason, h != null ? h.sinceMillis() : System.currentTimeMillis());
            haltLoggedAt = System.nanoTime();
            count("execution failures");
            route(core.onExecutionFailed(seq));
        }
    }

    /** Why this replica executes nothing, or null while it executes. */
    public Halt halted() {
        return halted;
    }

    private void onTick() {
        Halt h = halted;
        if (h != null && System.nanoTime() - haltLoggedAt >= HALT_LOG_PERIOD.toNanos()) {
            haltLoggedAt = System.nanoTime();
            LOG.error("{}: executes nothing, for {} s now: {} (at {}); it keeps fetching a stable checkpoint at or "
                    + "above {} from the other replicas to install", name,
                    (System.currentTimeMillis() - h.sinceMillis()) / 1000, h.reason(), h.seq(), h.seq());
        }
        try {
            synchronized (this) {
                route(core.onClock(WallClock.millis())); // a primary stamps its batches with it
                long skippedBefore = clock.skipped();
                for (int i = clock.elapse(System.nanoTime()); i > 0; i--) {
                    route(core.onTick());
                }
                long skipped = clock.skipped() - skippedBefore;
                if (skipped > 0) {
                    counters.computeIfAbsent("ticks skipped while stalled", k -> new AtomicLong()).addAndGet(skipped);
                    LOG.debug("{}: did not run for {} ms; not counted against the primary", name, skipped);
                }
            }
        } catch (RuntimeException e) {
            LOG.error("{}: PBFT tick failed", name, e);
        }
    }

    /**
     * Under the lock: carries the outputs out in order (each only enqueues). What the core asks to persist is
     * written and forced to the data directory first, so it is on disk before any message it justifies leaves.
     */
    private void route(List<Output> outputs) {
        if (stopped) {
            if (!outputs.isEmpty()) {
                LOG.debug("{}: stopped; {} outputs of the core discarded", name, outputs.size());
            }
            return;
        }
        if (journal != null) {
            boolean any = false;
            for (Output o : outputs) {
                if (o instanceof Output.Persist p) {
                    journal.append(p.record(), hooks.proofSignatures().apply(p.record()));
                    any = true;
                }
            }
            if (any && journal.sync()) {
                count("journal syncs");
            }
        }
        for (Output o : outputs) {
            if (o instanceof Output.Send s) {
                if (s.to() instanceof Destination.Client && s.message() instanceof Reply r) {
                    replies.reply(r);
                } else {
                    channels.send(s.to(), s.message());
                    if (s.message() instanceof org.bftws.core.ViewChange vc && vc.sender() == core.id()) {
                        hooks.ownViewChanges().accept(vc);
                    }
                }
            } else if (o instanceof Output.Execute || o instanceof Output.TakeCheckpoint || o instanceof Output.InstallState
                    || o instanceof Output.TentativeSettled) {
                invoker.enqueue(o); // in order with the executions: reads wait while the service's state is tentative
                if (o instanceof Output.TentativeSettled t) {
                    count(t.kept() ? "tentative executions kept" : "tentative executions undone");
                }
            } else {
                note(o);
            }
        }
        measurements.observe(outputs, core.stableCheckpoint());
        trace.observe(outputs);
        transferTrace.observe(outputs);
        view = core.view();
        lastExecuted = core.lastExecuted();
        if (core.stableCheckpoint() != lastStable) {
            lastStable = core.stableCheckpoint();
            channels.stableCheckpointIs(lastStable);
            onStable.run();
        }
    }

    private void note(Output o) {
        if (o instanceof Output.Committed) {
            count("committed batches");
        } else if (o instanceof Output.ViewChangeStarted v) {
            count("view changes started");
            // where this node stood says why nothing moved (a full window, a slot without its bodies, lagging executions)
            LOG.warn("{}: suspects the primary, moves to view {}: {} ({})", name, v.view(), v.reason(),
                    core instanceof org.bftws.core.Replica r ? r.describe() : "view " + core.view());
        } else if (o instanceof Output.ViewInstalled v) {
            count("views installed");
            LOG.warn("{}: entered view {} (primary: node {})", name, v.view(), v.primary());
        } else if (o instanceof Output.StateTransferred t) {
            count("state transfers");
            LOG.warn("{}: installed the stable checkpoint at {} by state transfer", name, t.seq());
        } else if (o instanceof Output.Diverged d) {
            count("diverged checkpoints");
            LOG.error("{}: its state at checkpoint {} ({}) differs from the stable checkpoint the group agreed on ({}): "
                    + "its service is not deterministic, or this replica is compromised; the group outvotes it. Restart "
                    + "it with an empty data directory to fetch the stable state.", name, d.seq(), d.own(), d.stable());
        } else if (o instanceof Output.SequencesExpired x) {
            counters.computeIfAbsent("sequences expired", k -> new AtomicLong()).addAndGet(x.clients().size());
            LOG.debug("{}: batch {} expired {} idle sequences", name, x.seq(), x.clients().size());
            replies.expired(x.clients());
        } else if (o instanceof Output.Dropped d) {
            count("dropped inputs");
            if (d.from() >= 0 && d.from() != core.id()) {
                // per sender: a node whose messages keep being refused is faulty (docs/byzantine-testing.md)
                count("dropped inputs from node " + d.from());
            }
            if (d.what().startsWith("ViewChange") || d.what().startsWith("NewView")) {
                // rare, and what an operator needs when a view change does not complete: logged, at most once a second
                count("view-changes and new-views dropped");
                long now = System.nanoTime();
                if (now - viewDropLoggedAt >= 1_000_000_000L) {
                    viewDropLoggedAt = now;
                    LOG.info("{}: dropped {} from node {}: {}", name, d.what(), d.from(), d.reason());
                    return;
                }
            }
            LOG.debug("{}: dropped {}: {}", name, d.what(), d.reason());
        }
    }

    private void count(String what) {
        counters.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    public int view() {
        return view;
    }

    /** The step log of state transfers (docs/recovery.md). */
    public TransferTrace transferTrace() {
        return transferTrace;
    }

    /** Checkpoint, state transfer and view change timings (docs/recovery.md). */
    public Measurements measurements() {
        return measurements;
    }

    /** Live entries of the core's last-reply table (client sequences that have not ended); -1 if it keeps none. */
    public synchronized int replyEntries() {
        return core.replyEntries();
    }

    /** Bytes of the core's encoded stable checkpoint (state and last-reply table); -1 if it holds none. */
    public synchronized long stableCheckpointBytes() {
        return core.stableCheckpointBytes();
    }

    /**
     * The core's last executed sequence number, as of its last outputs (recorded by {@link #route}), read without
     * the core's lock: monitoring (JMX, the status page) asks for it at any time.
     */
    public long lastExecuted() {
        return lastExecuted;
    }

    /**
     * The core's stable checkpoint, as of its last outputs (every input's outputs pass {@link #route}, which records
     * it), read without the core's lock: the replica channels ask for every batch they send.
     */
    public long stableCheckpoint() {
        return lastStable;
    }

    /** Counters for operators (committed batches, view changes, state transfers, dropped inputs). */
    public Map<String, Long> counters() {
        Map<String, Long> m = new java.util.TreeMap<>();
        counters.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }
}
