package org.bftws.axis2.standalone;

import java.time.Duration;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.config.GroupConfig;
import org.bftws.config.LimitsConfig;
import org.bftws.config.ProtocolConfig;

/**
 * How a node's HTTP server admits connections: {@code workers} threads serve them, at most {@code maxQueued} wait for
 * one (more are answered 503 at once), and one that waited longer than {@code staleAfter} is closed unread, because
 * its client has given up on it and sent its request again on a new connection.
 *
 * @param workers    threads that serve connections (each serves one connection until it closes)
 * @param maxQueued  connections that may wait for a worker (replicas.xml {@code <limits maxQueuedConnections>})
 * @param staleAfter how long a connection may wait for a worker ({@code staleConnectionAfter}, by default the
 *                   group's {@code clientTimeout})
 */
public record AdmissionPolicy(int workers, int maxQueued, Duration staleAfter) {

    /** Worker threads of a node's HTTP server unless its configuration says otherwise (Axis2's own default). */
    public static final int DEFAULT_WORKERS = 100;

    public AdmissionPolicy {
        if (workers < 1 || maxQueued < 1 || staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("HTTP admission needs a worker, a queue and a positive wait: "
                    + workers + " workers, " + maxQueued + " queued, " + staleAfter);
        }
    }

    /**
     * The policy of the node of {@code context}: the limits of its own group in replicas.xml (the group it is a node of,
     * as the security runtime found it at module start), the defaults for a node of no group or without the module.
     */
    public static AdmissionPolicy of(ConfigurationContext context, int workers) {
        Object runtime = context.getProperty(SecurityRuntime.CONTEXT_PROPERTY);
        java.util.Optional<GroupConfig> group = runtime instanceof SecurityRuntime r ? r.ownGroup()
                : java.util.Optional.empty();
        LimitsConfig limits = group.map(GroupConfig::limits).orElse(LimitsConfig.defaults());
        Duration clientTimeout = group.map(g -> g.protocol().clientTimeout())
                .orElse(ProtocolConfig.defaults().clientTimeout());
        return new AdmissionPolicy(workers, limits.maxQueuedConnections(),
                limits.staleConnectionAfter(clientTimeout));
    }
}
