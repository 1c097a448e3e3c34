package org.bftws.monitoring;

import java.util.Map;

/**
 * What an operator reads about one Axis2 node that runs the bftws module, replica or not (a client, a middle tier,
 * a plain WS-RM endpoint): its WS-RM layer and the security refusals. Registered as
 * {@code org.bftws:type=Node,name=<party>}; a replica has a {@link ReplicaMXBean} as well.
 */
public interface NodeMXBean {

    /** The node's name in replicas.xml (the module's {@code party} parameter), or "" when it has none. */
    String getParty();

    /** Requests accepted on application sequences and not yet delivered to the service. */
    int getPendingRequests();

    /** HTTP exchanges held open until their reply is ready. */
    int getHeldExchanges();

    /** Requests delivered to the services so far (ordered ones included). */
    long getDeliveredRequests();

    /**
     * The WS-RM layer's counters: sequences created and terminated, messages accepted and refused, duplicates answered
     * from the reply cache or joined to a pending request, hold timeouts, retransmissions this node sent as a client.
     */
    Map<String, Long> getRmCounters();

    /** Messages the security handlers refused, per reason (every reason, 0 included). */
    Map<String, Long> getSecurityRefusals();

    /**
     * What the node's HTTP server did with the connections it accepted: served by a worker, refused at once with a 503
     * because {@code maxQueuedConnections} were already waiting, closed unread because they had waited longer than
     * {@code staleConnectionAfter} (their client had given up).
     */
    Map<String, Long> getConnectionCounters();

    /** Connections accepted and waiting for a worker of the node's HTTP server now. */
    int getQueuedConnections();

    /** How long the oldest connection waiting for a worker has waited, in ms (0 when none waits). */
    long getOldestQueuedConnectionMillis();

    /** Heap in use in this node's JVM, in bytes (live objects and garbage not yet collected). */
    long getHeapUsedBytes();

    /** The JVM's maximum heap ({@code -Xmx}), in bytes; -1 when it has no limit. */
    long getHeapMaxBytes();

    /**
     * When this party's certificates stop being valid, ISO-8601 (UTC), by name: {@code party certificate} (its TLS and
     * WS-Security identity from keygen) and {@code deployment CA}; empty for a party without keys.
     */
    Map<String, String> getCertificateExpiry();

    /** With {@code <tls>}: {@code handshakes} completed and peer certificates {@code refused}; empty without. */
    Map<String, Long> getTlsCounters();
}
