package org.bftws.config;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * One replicated service: its group endpoint, the nodes behind it and how they order and execute.
 *
 * @param service       the Axis2 service name the group replicates (e.g. "EchoService")
 * @param endpoint      the group endpoint clients address; it never resolves to a host, MulticastSender maps it
 * @param f             number of Byzantine faults tolerated
 * @param configuration I, II or III
 * @param bftEnabled    false switches the group to plain WS-RM (paper 3.3.1: no recompilation, no redeployment)
 * @param security      message authentication
 * @param protocol      ordering, WS-RM and client tunables
 * @param nodes         agreement nodes (3f+1, ids 0..3f) followed by execution nodes of Configuration III (2f+1)
 * @param dataDirectory where a node keeps its log, checkpoints and last-reply table; null keeps them in memory
 * @param callers       services of the groups allowed to call this one with nested requests (paper 3.4); each such
 *                      request is accepted only after p+1 identical copies from that group's replicas
 * @param replicaChannel how the nodes exchange PBFT messages
 * @param operations    what the file says about the service's operations (the read-only ones)
 */
public record GroupConfig(String service, URI endpoint, int f, Configuration configuration, boolean bftEnabled,
                          SecurityConfig security, ProtocolConfig protocol, List<NodeConfig> nodes, Path dataDirectory,
                          List<String> callers, ReplicaChannelKind replicaChannel, List<OperationConfig> operations,
                          LimitsConfig limits) {

    public GroupConfig {
        nodes = List.copyOf(nodes);
        callers = List.copyOf(callers);
        operations = List.copyOf(operations);
    }

    /** A group that declares nothing about its operations. */
    public GroupConfig(String service, URI endpoint, int f, Configuration configuration, boolean bftEnabled,
                       SecurityConfig security, ProtocolConfig protocol, List<NodeConfig> nodes, Path dataDirectory,
                       List<String> callers, ReplicaChannelKind replicaChannel) {
        this(service, endpoint, f, configuration, bftEnabled, security, protocol, nodes, dataDirectory, callers,
                replicaChannel, List.of(), LimitsConfig.defaults());
    }

    /** The operation named {@code operation} when it is declared read-only (a replica's check). */
    public java.util.Optional<OperationConfig> readOnlyOperation(String operation) {
        return operations.stream().filter(o -> o.readOnly() && o.name().equals(operation)).findFirst();
    }

    /** The read-only operation a client's request with {@code wsaAction} calls, if any (a client's choice). */
    public java.util.Optional<OperationConfig> readOnlyForAction(String wsaAction) {
        return operations.stream().filter(o -> o.readOnly() && o.matchesAction(wsaAction)).findFirst();
    }

    /** Whether any operation is declared read-only: then linearizable reads need writes decided by 2f+1 replies. */
    public boolean hasReadOnlyOperations() {
        return operations.stream().anyMatch(OperationConfig::readOnly);
    }

    /** A group on the default (binary) replica channel. */
    public GroupConfig(String service, URI endpoint, int f, Configuration configuration, boolean bftEnabled,
                       SecurityConfig security, ProtocolConfig protocol, List<NodeConfig> nodes, Path dataDirectory,
                       List<String> callers) {
        this(service, endpoint, f, configuration, bftEnabled, security, protocol, nodes, dataDirectory, callers,
                ReplicaChannelKind.BINARY);
    }

    /** A group that no other group calls. */
    public GroupConfig(String service, URI endpoint, int f, Configuration configuration, boolean bftEnabled,
                       SecurityConfig security, ProtocolConfig protocol, List<NodeConfig> nodes, Path dataDirectory) {
        this(service, endpoint, f, configuration, bftEnabled, security, protocol, nodes, dataDirectory, List.of());
    }

    /** Nodes that take part in ordering, indexed by their id. */
    public List<NodeConfig> agreementNodes() {
        return nodes.stream().filter(n -> n.role().orders()).toList();
    }

    /** Nodes that execute the service and answer clients. */
    public List<NodeConfig> executionNodes() {
        return nodes.stream().filter(n -> n.role().executes()).toList();
    }

    /** A group of one node, or with BFT switched off, gets plain WS-RM from the module. */
    public boolean wsrmOnly() {
        return !bftEnabled || nodes.size() == 1;
    }

    public NodeConfig node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node named '" + name + "' in group " + service));
    }
}
