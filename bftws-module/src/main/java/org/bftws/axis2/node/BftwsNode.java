package org.bftws.axis2.node;

import org.bftws.axis2.rm.RmDestination;
import org.bftws.axis2.settings.NodeSettings;
import org.bftws.axis2.tier.NestedAdmission;
import org.bftws.rm.RmCounters;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.ordering.BftReplica;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.axis2.rm.RmSource;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.rm.Backoff;

/**
 * Everything the bftws module keeps for one Axis2 node (one ConfigurationContext): the server role
 * ({@link RmDestination}), the client role ({@link RmSource}), settings and counters. Server and client live in the
 * one module, as in the paper; a node is a replica, a client, or both (a middle tier).
 */
public final class BftwsNode {

    public static final String PROPERTY = "bftws.node";

    private final NodeSettings settings;
    private final RmCounters counters = new RmCounters();
    private final ScheduledExecutorService timer;
    private final RmDestination destination;
    private final RmSource source;
    private final ConfigurationContext configuration;
    private volatile BftReplica replica;
    /** Multi-tier: the filter for nested requests from the groups replicas.xml names as callers, or null. */
    private volatile NestedAdmission nested;
    private final ReplyVoting voting;
    /** This node's MBeans in the platform MBean server, unregistered when the module shuts down. */
    /** Told of the replica role when it starts (monitoring); kept so that one added later is told at once. */
    private final java.util.List<java.util.function.Consumer<BftReplica>> replicaListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.List<Runnable> stopListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final MulticastSender sender;

    public BftwsNode(ConfigurationContext configuration, NodeSettings settings) {
        this.configuration = configuration;
        this.settings = settings;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bftws-timer");
            t.setDaemon(true);
            return t;
        });
        this.destination = new RmDestination(settings, counters, timer);
        this.voting = new ReplyVoting(settings.replicas());
        this.sender = new MulticastSender(counters, Backoff.of(settings.retransmission(), settings.maxRetransmissions()),
                settings.attemptTimeout().toMillis(), voting::collectorFor, voting.counters(), https(configuration,
                        settings.replicas(), (int) Math.min(Integer.MAX_VALUE, settings.attemptTimeout().toMillis())));
        this.source = new RmSource(configuration, settings.replicas(), settings.attemptTimeout().toMillis()
                * (settings.maxRetransmissions() + 2L));
    }

    /**
     * How this node's client role opens {@code https://} connections: with replicas.xml's {@code <tls>}, as its party
     * (its certificate, the deployment CA, the node replicas.xml puts at the address); without, JSSE's defaults.
     */
    private static org.apache.http.conn.socket.LayeredConnectionSocketFactory https(ConfigurationContext configuration,
                                                                                   org.bftws.config.ReplicasConfig replicas,
                                                                                   int handshakeMillis) {
        if (!replicas.tlsOn()) {
            return org.apache.http.conn.ssl.SSLConnectionSocketFactory.getSocketFactory();
        }
        org.bftws.tls.HttpsPeers peers = org.bftws.tls.HttpsPeers.of(replicas);
        return new org.bftws.tls.HttpsClientSockets(() -> SecurityRuntime.of(configuration).tls().orElseThrow(
                () -> new IllegalStateException("replicas.xml has <tls>, but this node has no party name or no keys "
                        + "to present (set the bftws module parameter 'party' and run ./bftws keygen)")), () -> peers,
                handshakeMillis);
    }

    /** The node of {@code configuration}; the module creates it when Axis2 initialises the module. */
    public static BftwsNode of(ConfigurationContext configuration) {
        BftwsNode node = (BftwsNode) configuration.getProperty(PROPERTY);
        if (node == null) {
            throw new IllegalStateException("the bftws module was not initialised on this Axis2 node");
        }
        return node;
    }

    /** This engine as a client: at most {@code n} calls to replicated groups undecided at once (default 32). */
    public void admitCallsAtOnce(int n) {
        sender.admitAtOnce(n);
    }

    public NodeSettings settings() {
        return settings;
    }

    public RmCounters counters() {
        return counters;
    }

    public RmDestination destination() {
        return destination;
    }

    /** The client role's transport: every call to a group or node goes out through it. */
    public MulticastSender sender() {
        return sender;
    }

    public RmSource source() {
        return source;
    }

    /**
     * Starts this node's replica role if {@code party} is a node of a BFT group whose service is deployed here
     * (paper Fig. 5, server side): PBFT orders the service's requests from then on. Returns the replica, or null.
     */
    synchronized BftReplica startReplica(String party, org.bftws.config.GroupConfig group)
            throws org.apache.axis2.AxisFault {
        if (replica == null) {
            java.util.List<org.bftws.config.GroupConfig> callers = settings.replicas().callersOf(group);
            NestedAdmission gate = callers.isEmpty() ? null
                    : new NestedAdmission(group, callers, settings.window(), destination, counters);
            BftReplica r = BftReplica.create(configuration, settings.replicas(), group, party, destination.pending(),
                    destination.replies(), destination.sequences(), source, destination::forgetEnded, gate);
            if (r != null) {
                if (gate != null) {
                    gate.start(timer);
                }
                nested = gate;
                destination.useTotalOrder(r.service(), r.invoker(), r.executes());
                r.start();
                // Published only now: start() queued the journal's set_state and re-executions on the invoker's
                // thread, so a read-only request (which needs replica()) queues behind them and never sees the
                // empty state of a replica restarted from its data directory (docs/protocol.md, "After a restart").
                replica = r;
                replicaListeners.forEach(l -> l.accept(r));
            }
        }
        return replica;
    }

    /**
     * Starts the replica role as soon as the replicated service is deployed (Axis2 deploys services after it
     * initialised the modules); gives up with a warning after a minute.
     */
    public void startReplicaWhenDeployed(String party, org.bftws.config.GroupConfig group) {
        destination.expectTotalOrder(group.service());
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
        timer.schedule(new Runnable() {
            @Override
            public void run() {
                try {
                    if (startReplica(party, group) != null) {
                        return;
                    }
                } catch (org.apache.axis2.AxisFault | RuntimeException e) {
                    org.slf4j.LoggerFactory.getLogger(BftwsNode.class).error("bftws: {} cannot start as a replica: {}",
                            party, e.toString(), e);
                    return;
                }
                if (System.nanoTime() < deadline) {
                    timer.schedule(this, 20, java.util.concurrent.TimeUnit.MILLISECONDS);
                } else {
                    org.slf4j.LoggerFactory.getLogger(BftwsNode.class).warn(
                            "bftws: {} is a replica in replicas.xml, but its service is not deployed here", party);
                }
            }
        }, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** {@code listener} is told of the replica role when it starts, or now if it has started. */
    public synchronized void whenReplicaStarts(java.util.function.Consumer<BftReplica> listener) {
        replicaListeners.add(listener);
        if (replica != null) {
            listener.accept(replica);
        }
    }

    /** {@code listener} runs when the node stops, before its roles stop. */
    public void whenStopping(Runnable listener) {
        stopListeners.add(listener);
    }

    public NestedAdmission nested() {
        return nested;
    }

    /** This node's replica role, or null when it serves plain WS-RM. */
    public BftReplica replica() {
        return replica;
    }

    /** The client role's reply voting: views learned from groups, counters of decided and dropped replies. */
    public ReplyVoting voting() {
        return voting;
    }

    /**
     * Call before the HTTP server of {@code configuration} stops: the node's held exchanges are answered with the
     * retry-later fault rather than cut by the server's shutdown. Nothing happens where the module is not engaged.
     */
    public static void beforeServerStops(ConfigurationContext configuration) {
        if (configuration.getProperty(PROPERTY) instanceof BftwsNode node) {
            node.destination.stopHolding();
        }
    }

    public void stop() throws InterruptedException {
        stopListeners.forEach(Runnable::run);
        BftReplica r = replica;
        if (r != null) {
            r.stop();
        }
        destination.stop();
        sender.stop();
        timer.shutdownNow();
    }
}
