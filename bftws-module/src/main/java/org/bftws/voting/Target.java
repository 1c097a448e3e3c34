package org.bftws.voting;

import java.net.URI;
import java.util.List;

import org.bftws.config.GroupConfig;

/**
 * Where a client message goes: the address the application used, the nodes it maps to, and what decides that a
 * reply is final. A group endpoint maps to every node of the group (paper 3.3.1.2): agreement nodes order the
 * request, execution nodes hold it until it executed and answer (in Configuration I every node does both; agreement-
 * only nodes of II and III acknowledge at once). Any other address is a single, non-replicated WS-RM endpoint.
 *
 * @param address      the wsa:To address: a group endpoint or a service's own URL
 * @param destinations the node endpoints to POST to
 * @param group        the group, or null for a direct endpoint
 */
public record Target(URI address, List<URI> destinations, GroupConfig group) {

    public Target {
        destinations = List.copyOf(destinations);
    }

    public static Target direct(URI address) {
        return new Target(address, List.of(address), null);
    }

    public static Target group(GroupConfig group) {
        return new Target(group.endpoint(), group.nodes().stream().map(n -> n.serviceEndpoint()).toList(), group);
    }

    /** Replies needed from distinct nodes: 1 for a direct endpoint or a WS-RM-only group, else f+1. */
    public int repliesNeeded() {
        return group == null || group.wsrmOnly() ? 1 : group.f() + 1;
    }
}
