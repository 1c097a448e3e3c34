package org.bftws.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;

/**
 * A replicated setup against the unreplicated node with the same security profile at the same point (size and
 * clients): the ratios. NaN where either side has no figure.
 *
 * @param replicated     the replicated point
 * @param baseline       the unreplicated point with the same profile
 * @param latencyRatio   replicated mean latency / unreplicated mean latency
 * @param boxRatio       replicated / unreplicated throughput on this machine (all processes share its cores)
 * @param projectedRatio replicated / unreplicated projected throughput with one host per node
 */
record Comparison(PointResult replicated, PointResult baseline, double latencyRatio, double boxRatio,
                  double projectedRatio) {

    static Comparison of(PointResult replicated, PointResult baseline) {
        return new Comparison(replicated, baseline,
                ratio(replicated.latency().meanMs(), baseline.latency().meanMs(), replicated, baseline),
                ratio(replicated.clientRps(), baseline.clientRps(), replicated, baseline),
                ratio(replicated.projectedRps(), baseline.projectedRps(), replicated, baseline));
    }

    private static double ratio(double a, double b, PointResult ra, PointResult rb) {
        if (!ra.ok() || !rb.ok() || Double.isNaN(a) || Double.isNaN(b) || b == 0) {
            return Double.NaN;
        }
        return a / b;
    }

    /** Every replicated point that has an unreplicated point of the same profile, size and clients. */
    static List<Comparison> all(List<PointResult> results) {
        List<Comparison> out = new ArrayList<>();
        for (PointResult r : results) {
            if (r.setup().kind() != BenchSetup.Kind.BFT) {
                continue;
            }
            baseline(results, r.setup().security(), r.point()).ifPresent(b -> out.add(of(r, b)));
        }
        return out;
    }

    /** Configuration {@code c} with {@code profile} at the point, against its baseline. */
    static Optional<Comparison> find(List<PointResult> results, Configuration c, SecurityProfile profile,
                                     BenchPoint point) {
        for (PointResult r : results) {
            if (r.setup().equals(BenchSetup.bft(c, profile)) && r.point().equals(point)) {
                return baseline(results, profile, point).map(b -> of(r, b));
            }
        }
        return Optional.empty();
    }

    /**
     * The 3-tier echo with {@code profile} at the point against the client-server echo (Configuration I, same
     * profile, size and clients): what a nested call costs beyond the call it is nested in (the paper's Fig. 8: about
     * twice).
     */
    static Optional<Comparison> threeTier(List<PointResult> results, SecurityProfile profile, BenchPoint point) {
        Optional<PointResult> nested = results.stream().filter(r -> r.setup().equals(BenchSetup.threeTier(profile))
                && r.point().equals(point)).findFirst();
        Optional<PointResult> clientServer = results.stream().filter(r -> r.setup().equals(
                BenchSetup.bft(Configuration.I, profile)) && r.point().equals(point)).findFirst();
        return nested.flatMap(n -> clientServer.map(c -> of(n, c)));
    }

    private static Optional<PointResult> baseline(List<PointResult> results, SecurityProfile profile,
                                                  BenchPoint point) {
        return results.stream().filter(b -> b.setup().equals(BenchSetup.unreplicated(profile))
                && b.point().equals(point)).findFirst();
    }
}
