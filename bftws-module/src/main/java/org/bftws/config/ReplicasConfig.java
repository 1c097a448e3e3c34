package org.bftws.config;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything conf/replicas.xml says: the replicated groups, the clients allowed to call them, where the keys
 * are ({@code keys} is null when the file has no {@code <keys>}, which only a deployment without security may do) and
 * how its links use TLS ({@code tls} is null when the file has no {@code <tls>}: every link is plain).
 */
public record ReplicasConfig(List<GroupConfig> groups, List<ClientConfig> clients, KeysConfig keys, TlsConfig tls) {

    public ReplicasConfig {
        groups = List.copyOf(groups);
        clients = List.copyOf(clients);
    }

    public ReplicasConfig(List<GroupConfig> groups, List<ClientConfig> clients) {
        this(groups, clients, null, null);
    }

    /** Whether the deployment's links run TLS ({@code <tls>}). */
    public boolean tlsOn() {
        return tls != null;
    }

    /** The group whose group endpoint is {@code endpoint}, if any: the test MulticastSender uses to take a message. */
    public Optional<GroupConfig> groupByEndpoint(URI endpoint) {
        return groups.stream().filter(g -> g.endpoint().equals(endpoint)).findFirst();
    }

    /** The group that replicates the Axis2 service {@code service}, if any. */
    public Optional<GroupConfig> groupByService(String service) {
        return groups.stream().filter(g -> g.service().equals(service)).findFirst();
    }

    /**
     * Every group that has a node called {@code name}: one, except for an agreement node of an
     * {@code <agreementGroup>}, which orders each of its services (one group per service).
     */
    public List<GroupConfig> groupsOfNode(String name) {
        return groups.stream().filter(g -> g.nodes().stream().anyMatch(n -> n.name().equals(name))).toList();
    }

    /**
     * The group node {@code name} serves as service {@code service}; with {@code service} null its only group.
     * Empty when no group has such a node; IllegalArgumentException, saying what to set, when the node orders
     * several services and none was named, or {@code service} is not one of them.
     */
    public Optional<GroupConfig> groupOfNode(String name, String service) {
        List<GroupConfig> of = groupsOfNode(name);
        if (of.isEmpty()) {
            return Optional.empty();
        }
        if (service == null || service.isEmpty()) {
            if (of.size() > 1) {
                throw new IllegalArgumentException(name + " orders several services ("
                        + String.join(", ", of.stream().map(GroupConfig::service).toList())
                        + "); say which one this node serves with the bftws setting 'service'"
                        + " (-Dbftws.service=SERVICE, or ./bftws replica --group SERVICE)");
            }
            return Optional.of(of.get(0));
        }
        return Optional.of(of.stream().filter(g -> g.service().equals(service)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name + " is no node of service " + service
                        + "; its services: " + String.join(", ", of.stream().map(GroupConfig::service).toList()))));
    }

    /** The group with a node whose service or control endpoint is {@code endpoint}, if any. */
    public Optional<GroupConfig> groupByNodeEndpoint(URI endpoint) {
        return groups.stream().filter(g -> g.nodes().stream().anyMatch(
                n -> n.serviceEndpoint().equals(endpoint) || n.controlEndpoint().equals(endpoint))).findFirst();
    }

    /** The groups {@code callee} accepts nested requests from (its {@code <caller group>} elements). */
    public List<GroupConfig> callersOf(GroupConfig callee) {
        return callee.callers().stream().map(this::groupByService).flatMap(Optional::stream).toList();
    }

    /** The keystore of node or client {@code party} (exact name), if replicas.xml names such a party. */
    public Optional<java.nio.file.Path> keystoreOf(String party) {
        return groups.stream().flatMap(g -> g.nodes().stream()).filter(n -> n.name().equals(party))
                .map(NodeConfig::keystore).findFirst()
                .or(() -> clients.stream().filter(c -> c.name().equals(party)).map(ClientConfig::keystore).findFirst());
    }

    /** Every node and client name: the parties that hold keys and may sign. */
    public List<String> partyNames() {
        return Stream.concat(groups.stream().flatMap(g -> g.nodes().stream()).map(NodeConfig::name),
                clients.stream().map(ClientConfig::name)).distinct().toList();
    }
}
