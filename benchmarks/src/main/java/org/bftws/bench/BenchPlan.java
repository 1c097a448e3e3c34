package org.bftws.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * What a suite run measures, in order: setups (each started once) and the points of each, and BFT-SMaRt's
 * microbenchmark as the peer to compare with. The headline compares Configuration I with the unreplicated node of the
 * same profile at {@value #HEADLINE_CLIENTS} clients and {@value #HEADLINE_SIZE} elements ("small requests").
 */
record BenchPlan(List<Stage> stages, Optional<PeerRuns> peer) {

    static final int HEADLINE_SIZE = 10;
    static final int HEADLINE_CLIENTS = 8;
    /**
     * The peer's client counts, in the order run: 8 first, so the peer's headline figure is measured right after
     * C-I mac's (the last point of its setup), then 1 for the latency target.
     */
    static final List<Integer> PEER_CLIENTS = List.of(HEADLINE_CLIENTS, 1);

    /** One setup and the points measured on it, in this order. */
    record Stage(BenchSetup setup, List<BenchPoint> points) {
    }

    /**
     * BFT-SMaRt's microbenchmark at these client counts, run right after stage {@code after} of the plan (C-I mac,
     * so the two are measured back to back on the same machine), or before the first stage ({@code -1}) when the
     * plan has no C-I mac.
     */
    record PeerRuns(List<Integer> clients, int after) {
    }

    static BenchPlan of(BenchOptions options) {
        return options.quick() ? quick() : full(options);
    }

    /**
     * The paper's grid: every size with every client count, for the unsigned baseline, and per profile the signed
     * baseline and each Configuration. Baselines first, so a long run has its references even if stopped later;
     * within a setup, the headline point last (warm, like the service an operator runs for days).
     */
    static BenchPlan full(BenchOptions options) {
        List<BenchPoint> grid = new ArrayList<>();
        for (int size : options.sizes()) {
            for (int clients : options.clients()) {
                grid.add(new BenchPoint(size, clients));
            }
        }
        // the headline's point last, once the setup has served every other point: measured first, it was the
        // coldest point of its setup (the JIT still compiling the request path; points measured after it in the
        // same setup ran 15-45 % faster, fifth session). A setup that degrades as it runs shows that here too.
        BenchPoint headline = new BenchPoint(HEADLINE_SIZE, HEADLINE_CLIENTS);
        if (grid.remove(headline)) {
            grid.add(headline);
        }
        List<Stage> stages = new ArrayList<>();
        stages.add(new Stage(BenchSetup.unreplicated(SecurityProfile.NONE), grid));
        for (SecurityProfile profile : options.profiles()) {
            if (profile != SecurityProfile.NONE) {
                stages.add(new Stage(BenchSetup.unreplicated(profile), grid));
            }
            for (Configuration c : options.configurations()) {
                stages.add(new Stage(BenchSetup.bft(c, profile), grid));
            }
            // the paper's Fig. 8(b): the 3-tier echo of 100 elements at each client count, with both profiles
            stages.add(new Stage(BenchSetup.threeTier(profile),
                    options.clients().stream().map(c -> new BenchPoint(THREE_TIER_SIZE, c)).toList()));
        }
        if (!options.only().isEmpty()) {
            for (String id : options.only()) {
                if (!id.equals(PeerResult.ID) && stages.stream().noneMatch(s -> s.setup().id().equals(id))) {
                    throw new IllegalArgumentException("--only: no setup '" + id + "' in the plan; the plan's setups are "
                            + String.join(", ", stages.stream().map(s -> s.setup().id()).toList()) + " and "
                            + PeerResult.ID + " (BFT-SMaRt)");
                }
            }
            stages.removeIf(s -> !options.only().contains(s.setup().id()));
        }
        // an --only run measures the peer only when named, so its earlier rows stay with the run they came from
        boolean peer = options.only().isEmpty() || options.only().contains(PeerResult.ID);
        return withPeer(stages, peer);
    }

    /** The plan of {@code stages}, with the peer right after C-I mac when {@code peer}. */
    private static BenchPlan withPeer(List<Stage> stages, boolean peer) {
        BenchSetup headline = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
        int after = -1;
        for (int i = 0; i < stages.size(); i++) {
            if (stages.get(i).setup().equals(headline)) {
                after = i;
            }
        }
        return new BenchPlan(List.copyOf(stages), peer ? Optional.of(new PeerRuns(PEER_CLIENTS, after))
                : Optional.empty());
    }

    /**
     * The small version: small requests only; the headline's two setups at 1 and 8 clients, then the peer, and the
     * wssec target's two setups at 8 clients.
     */
    static BenchPlan quick() {
        List<BenchPoint> oneAndEight = List.of(new BenchPoint(HEADLINE_SIZE, 1),
                new BenchPoint(HEADLINE_SIZE, HEADLINE_CLIENTS));
        List<BenchPoint> eight = List.of(new BenchPoint(HEADLINE_SIZE, HEADLINE_CLIENTS));
        return withPeer(List.of(
                new Stage(BenchSetup.unreplicated(SecurityProfile.MAC), oneAndEight),
                new Stage(BenchSetup.bft(Configuration.I, SecurityProfile.MAC), oneAndEight),
                new Stage(BenchSetup.unreplicated(SecurityProfile.WSSEC), eight),
                new Stage(BenchSetup.bft(Configuration.I, SecurityProfile.WSSEC), eight)), true);
    }

    /** Elements of the 3-tier echo's requests, as in the paper's Fig. 8(b). */
    static final int THREE_TIER_SIZE = 100;

    /** Points that are measured. */
    int points() {
        return stages.stream().mapToInt(s -> s.points().size()).sum();
    }
}
