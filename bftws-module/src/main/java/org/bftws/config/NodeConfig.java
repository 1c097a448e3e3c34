package org.bftws.config;

import java.net.URI;
import java.nio.file.Path;

/**
 * One node of a replication group as listed in replicas.xml.
 *
 * @param id              dense index 0..n-1 among the group's nodes of the same kind (agreement or execution)
 * @param name            unique name, also the key alias in keystores and the name on its certificate
 * @param serviceEndpoint where this node's copy of the application service listens
 * @param controlEndpoint where this node's BFT-WS control service (replica-to-replica messages) listens
 * @param role            what the node does
 * @param keystore        PKCS#12 file with this node's private key, certificate and pairwise MAC keys
 * @param channelEndpoint where this node's binary replica channel listens ({@code tcp://HOST:PORT}); null when the
 *                        group does not use it
 * @param byzantineAllowed whether a testing tool may make this node lie ({@code ./bftws replica --byzantine MODE},
 *                        docs/byzantine-testing.md); false unless replicas.xml says {@code byzantineAllowed="true"}
 */
public record NodeConfig(int id, String name, URI serviceEndpoint, URI controlEndpoint, NodeRole role, Path keystore,
                         URI channelEndpoint, boolean byzantineAllowed) {

    /** A node no testing tool may make lie. */
    public NodeConfig(int id, String name, URI serviceEndpoint, URI controlEndpoint, NodeRole role, Path keystore,
                      URI channelEndpoint) {
        this(id, name, serviceEndpoint, controlEndpoint, role, keystore, channelEndpoint, false);
    }

    /** A node without a binary channel address. */
    public NodeConfig(int id, String name, URI serviceEndpoint, URI controlEndpoint, NodeRole role, Path keystore) {
        this(id, name, serviceEndpoint, controlEndpoint, role, keystore, null);
    }
}
