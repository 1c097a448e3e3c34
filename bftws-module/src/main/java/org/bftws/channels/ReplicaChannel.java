package org.bftws.channels;

import java.util.Map;
import org.bftws.core.Destination;
import org.bftws.core.Message;

/**
 * How a replica's PBFT messages reach the other nodes of its group: the {@link BinaryChannel} (compact frames over
 * one TCP connection per pair of nodes, the default) or the {@link SoapChannel} (SOAP one-way messages over WS-RM
 * sequences, the paper's design), as replicas.xml's {@code replicaChannel} says. The protocol core is the same over
 * both; what arrives is handed to a {@link ChannelInbound}.
 */
public interface ReplicaChannel {

    /** Starts the senders (and, for the binary channel, listening on this node's channel address). */
    void start();

    void stop();

    /**
     * Queues {@code m} for every node {@code to} names (never this node). Never blocks on the network: the Total
     * Order Manager calls it under its lock.
     */
    void send(Destination to, Message m);

    /**
     * This node's stable checkpoint is now {@code seq} (the ordering driver says so, under its lock, when it moves):
     * messages for slots settled while they waited for a peer are left out when they come up for sending
     * ({@link SettledMessages}).
     */
    void stableCheckpointIs(long seq);

    /** What the channel did, by name (each name starts with "PBFT "). */
    Map<String, Long> counters();
}
