package org.bftws.axis2;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.axis2.client.RmSource;
import org.bftws.rm.Backoff;

/**
 * Everything the bftws module keeps for one Axis2 node (one ConfigurationContext): the server role
 * ({@link RmDestination}), the client role ({@link RmSource}), settings and counters. Server and client live in the
 * one module, as in the paper; a node is a replica, a client, or both (a middle tier).
 */
public final class BftwsNode {

    static final String PROPERTY = "bftws.node";

    private final NodeSettings settings;
    private final RmCounters counters = new RmCounters();
    private final ScheduledExecutorService timer;
    private final RmDestination destination;
    private final RmSource source;
    private final ReplyVoting voting;

    BftwsNode(ConfigurationContext configuration, NodeSettings settings) {
        this.settings = settings;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bftws-timer");
            t.setDaemon(true);
            return t;
        });
        this.destination = new RmDestination(settings, counters, timer);
        MulticastSender sender = new MulticastSender(counters,
                Backoff.of(settings.retransmission(), settings.maxRetransmissions()),
                settings.attemptTimeout().toMillis());
        this.voting = new ReplyVoting(settings.replicas());
        sender.setCollectors(voting::collectorFor);
        this.source = new RmSource(configuration, settings.replicas(), sender, settings.attemptTimeout().toMillis()
                * (settings.maxRetransmissions() + 2L));
    }

    /** The node of {@code configuration}; the module creates it when Axis2 initialises the module. */
    public static BftwsNode of(ConfigurationContext configuration) {
        BftwsNode node = (BftwsNode) configuration.getProperty(PROPERTY);
        if (node == null) {
            throw new IllegalStateException("the bftws module was not initialised on this Axis2 node");
        }
        return node;
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

    public RmSource source() {
        return source;
    }

    /** The client role's reply voting: views learned from groups, counters of decided and dropped replies. */
    public ReplyVoting voting() {
        return voting;
    }

    void stop() throws InterruptedException {
        destination.stop();
        source.sender().stop();
        timer.shutdownNow();
    }
}
