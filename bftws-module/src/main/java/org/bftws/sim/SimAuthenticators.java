package org.bftws.sim;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.bftws.core.Digest;
import org.bftws.core.Request;

/**
 * Which node of a simulated group authenticates which client request: signed requests (and the caller group's nested
 * ones) verify everywhere; a MAC authenticator has one entry per node, and the Byzantine client's requests carry
 * entries that are valid at some nodes only. Also whose requests a node must authenticate itself before it vouches
 * for them (the core's gate).
 */
final class SimAuthenticators {

    private final boolean macRequests;
    /** Requests whose MAC authenticator verifies only at some nodes (the Byzantine client's), with those nodes. */
    private final Map<Digest, Set<Integer>> validAt = new HashMap<>();

    SimAuthenticators(boolean macRequests) {
        this.macRequests = macRequests;
    }

    /**
     * Whose requests a node must authenticate itself before it vouches for them: every client's when requests carry
     * MAC authenticators, else the caller group's nested ones (paper 3.4).
     */
    boolean gated(String client) {
        return macRequests || Simulation.isNested(client);
    }

    /** Whether node {@code node} authenticates {@code r}: signatures verify everywhere, a MAC entry only where made so. */
    boolean authenticates(int node, Request r) {
        if (!macRequests || Simulation.isNested(r.id().client())) {
            return true;
        }
        Set<Integer> nodes = validAt.get(r.digest());
        return nodes == null || nodes.contains(node);
    }

    /** {@code r}'s authenticator is valid at {@code nodes} only (with signed requests, it verifies everywhere). */
    void validAt(Request r, Set<Integer> nodes) {
        if (macRequests) {
            validAt.put(r.digest(), Set.copyOf(nodes));
        }
    }
}
