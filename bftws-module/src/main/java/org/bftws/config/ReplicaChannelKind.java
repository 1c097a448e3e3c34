package org.bftws.config;

/** How a group's nodes exchange PBFT messages (replicas.xml {@code <group replicaChannel="...">}). */
public enum ReplicaChannelKind {
    /**
     * Compact binary frames over one persistent TCP connection per pair of nodes, HMAC'd with the pair key, outside
     * Axis2; every node needs a {@code channelEndpoint}. The default.
     */
    BINARY,
    /** SOAP one-way messages over WS-RM sequences to each node's control service, the BFT-WS paper's design. */
    SOAP
}
