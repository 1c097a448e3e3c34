package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;

class TargetsTest {

    private static final BenchSetup C1_MAC = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
    private static final BenchSetup UNREP_MAC = BenchSetup.unreplicated(SecurityProfile.MAC);
    private static final BenchSetup C1_WSSEC = BenchSetup.bft(Configuration.I, SecurityProfile.WSSEC);
    private static final BenchSetup UNREP_WSSEC = BenchSetup.unreplicated(SecurityProfile.WSSEC);
    private static final BenchSetup UNREP_NONE = BenchSetup.unreplicated(SecurityProfile.NONE);

    @Test
    void theFinalLineComparesConfigurationIWithTheUnreplicatedNodeOfTheSameProfileAtEightClientsAndTenElements() {
        List<PointResult> results = List.of(
                SampleResults.ok(UNREP_NONE, 10, 8, 1.0, 2000, 0.5), // another profile: not the baseline
                SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(UNREP_MAC, 10, 1, 5.0, 200, 2.0), // another point: not the headline
                SampleResults.ok(C1_MAC, 10, 1, 50.0, 20, 9.0),
                SampleResults.ok(C1_MAC, 10, 8, 18.0, 250, 2.5));
        Targets t = new Targets(results);
        // 18 / 10 ms; (1000 / 2.5) / (1000 / 2.0) = 0.8; 250 req/s on this machine
        assertEquals("latency ratio 1.80, projected throughput ratio 0.80, box throughput 250.0 req/s",
                t.finalLine());
        assertTrue(t.headlineMeasured());
        List<Targets.Row> rows = t.rows();
        assertEquals(Boolean.TRUE, rows.get(0).met(), "1.80 <= 2.0");
        assertEquals(Boolean.TRUE, rows.get(1).met(), "80 % >= 70 %");
        assertNull(rows.get(2).met(), "the box throughput has a reference, not a pass mark");
        assertNull(rows.get(3).met(), "wssec not measured");
        assertEquals("not measured", rows.get(3).figure());
    }

    @Test
    void targetsMissedAreMarkedSo() {
        List<PointResult> results = List.of(
                SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(C1_MAC, 10, 8, 35.0, 100, 5.0),
                SampleResults.ok(UNREP_WSSEC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(C1_WSSEC, 10, 8, 80.0, 80, 8.0));
        List<Targets.Row> rows = new Targets(results).rows();
        assertEquals(Boolean.FALSE, rows.get(0).met(), "3.5 > 2.0");
        assertEquals(Boolean.FALSE, rows.get(1).met(), "40 % < 70 %");
        assertEquals(Boolean.FALSE, rows.get(3).met(), "80 / 400 = 20 % < 25 %");
        assertTrue(rows.get(3).figure().startsWith("20 %"), rows.get(3).figure());
    }

    @Test
    void aFailedHeadlinePointLeavesItsFiguresUnmeasured() {
        List<PointResult> results = List.of(SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.failed(C1_MAC, 10, 8, "setup failed: replica2 ended before it was ready"));
        Targets t = new Targets(results);
        assertEquals("latency ratio n/a, projected throughput ratio n/a, box throughput n/a req/s", t.finalLine());
        assertFalse(t.headlineMeasured());
        assertEquals("latency ratio n/a, projected throughput ratio n/a, box throughput n/a req/s",
                new Targets(List.of()).finalLine());
    }
}
