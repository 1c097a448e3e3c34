package org.bftws.bench;

import java.util.Locale;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * One deployment the benchmark suite measures: the replicated echo in one of the paper's Configurations, or a
 * baseline without replication. Each setup's nodes are started once and serve all of its points.
 *
 * @param kind          replicated (PBFT) or one unreplicated node
 * @param configuration the paper's Configuration of a replicated setup (I for an unreplicated one)
 * @param security      the group's message authentication profile
 */
record BenchSetup(Kind kind, Configuration configuration, SecurityProfile security) {

    enum Kind {
        /**
         * One node with the bftws module, a group of one node (f=0): WS-RM only, no ordering. With profile none
         * this is both the paper's "no replication, no signing" and the WS-RM-only baseline (a one-node group is
         * plain WS-RM, as a {@code bft="false"} group is); with mac or wssec, client requests and replies are
         * WS-Security signed, the paper's "no replication, with signing".
         */
        UNREPLICATED,
        /** 3f+1 = 4 agreement nodes (and 3 execution nodes in Configuration III) ordering with PBFT. */
        BFT,
        /**
         * The paper's 3-tier echo (section 4.1.2): 4 replicas of the echo relay (Configuration I) whose service
         * calls 4 echo replicas (Configuration I) with nested requests, and answers with their reply (8 JVMs).
         */
        THREE_TIER
    }

    static BenchSetup unreplicated(SecurityProfile security) {
        return new BenchSetup(Kind.UNREPLICATED, Configuration.I, security);
    }

    static BenchSetup bft(Configuration configuration, SecurityProfile security) {
        return new BenchSetup(Kind.BFT, configuration, security);
    }

    static BenchSetup threeTier(SecurityProfile security) {
        return new BenchSetup(Kind.THREE_TIER, Configuration.I, security);
    }

    /** Short identifier for file names and the CSV: {@code unrep-none}, {@code c1-mac}, {@code c3-wssec}. */
    String id() {
        String p = profile();
        return switch (kind) {
            case UNREPLICATED -> "unrep-" + p;
            case BFT -> "c" + (configuration.ordinal() + 1) + "-" + p;
            case THREE_TIER -> "3tier-" + p;
        };
    }

    /** Name in tables and plot legends. */
    String label() {
        if (kind == Kind.THREE_TIER) {
            return "3-tier echo, C-I " + profile();
        }
        if (kind == Kind.UNREPLICATED) {
            return security == SecurityProfile.NONE ? "no replication, unsigned (WS-RM only)"
                    : "no replication, signed (" + profile() + ")";
        }
        return "C-" + configuration + " " + profile();
    }

    String profile() {
        return security.name().toLowerCase(Locale.ROOT);
    }

    /** JVMs the setup starts: 1 unreplicated node, 4 replicas, 4 agreement and 3 execution nodes, or 4 + 4. */
    int nodes() {
        return switch (kind) {
            case UNREPLICATED -> 1;
            case BFT -> configuration == Configuration.III ? 7 : 4;
            case THREE_TIER -> 8;
        };
    }

    /** Faults the group tolerates: how many replies the client waits for is f+1. */
    int f() {
        return kind == Kind.UNREPLICATED ? 0 : 1;
    }

    /** Parses {@link #id()}. */
    static BenchSetup parse(String id) {
        String[] parts = id.split("-", 2);
        if (parts.length != 2) {
            throw new IllegalArgumentException("not a setup id: " + id);
        }
        SecurityProfile security = SecurityProfile.valueOf(parts[1].toUpperCase(Locale.ROOT));
        return switch (parts[0]) {
            case "unrep" -> unreplicated(security);
            case "c1" -> bft(Configuration.I, security);
            case "c2" -> bft(Configuration.II, security);
            case "c3" -> bft(Configuration.III, security);
            case "3tier" -> threeTier(security);
            default -> throw new IllegalArgumentException("not a setup id: " + id);
        };
    }
}
