package org.bftws.config;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** Everything conf/replicas.xml says: the replicated groups and the clients allowed to call them. */
public record ReplicasConfig(List<GroupConfig> groups, List<ClientConfig> clients) {

    public ReplicasConfig {
        groups = List.copyOf(groups);
        clients = List.copyOf(clients);
    }

    /** The group whose group endpoint is {@code endpoint}, if any: the test MulticastSender uses to take a message. */
    public Optional<GroupConfig> groupByEndpoint(URI endpoint) {
        return groups.stream().filter(g -> g.endpoint().equals(endpoint)).findFirst();
    }

    /** The group that replicates the Axis2 service {@code service}, if any. */
    public Optional<GroupConfig> groupByService(String service) {
        return groups.stream().filter(g -> g.service().equals(service)).findFirst();
    }
}
