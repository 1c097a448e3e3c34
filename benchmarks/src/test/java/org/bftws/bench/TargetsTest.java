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
        Targets t = new Targets(results, List.of());
        // 18 / 10 ms; (1000 / 2.5) / (1000 / 2.0) = 0.8; 250 req/s on this machine
        assertEquals("latency ratio 1.80, projected throughput ratio 0.80, box throughput 250.0 req/s",
                t.finalLine());
        assertTrue(t.headlineMeasured());
        List<Targets.Row> rows = t.rows();
        assertEquals(Boolean.TRUE, rows.get(0).met(), "1.80 <= 2.0");
        assertEquals(Boolean.TRUE, rows.get(1).met(), "80 % >= 70 %");
        for (int peer = 2; peer <= 4; peer++) {
            assertNull(rows.get(peer).met(), "no BFT-SMaRt rows: " + rows.get(peer));
            assertTrue(rows.get(peer).figure().equals("not measured: this run has no BFT-SMaRt rows"), rows.get(peer).figure());
        }
        assertNull(rows.get(5).met(), "wssec not measured");
        assertEquals("not measured", rows.get(5).figure());
    }

    @Test
    void targetsMissedAreMarkedSo() {
        List<PointResult> results = List.of(
                SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(C1_MAC, 10, 8, 35.0, 100, 5.0),
                SampleResults.ok(UNREP_WSSEC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(C1_WSSEC, 10, 8, 80.0, 80, 8.0));
        List<Targets.Row> rows = new Targets(results, List.of()).rows();
        assertEquals(Boolean.FALSE, rows.get(0).met(), "3.5 > 2.0");
        assertEquals(Boolean.FALSE, rows.get(1).met(), "40 % < 70 %");
        assertEquals(Boolean.FALSE, rows.get(5).met(), "80 / 400 = 20 % < 25 %");
        assertTrue(rows.get(5).figure().startsWith("20 %"), rows.get(5).figure());
    }

    @Test
    void aFailedHeadlinePointLeavesItsFiguresUnmeasured() {
        List<PointResult> results = List.of(SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.failed(C1_MAC, 10, 8, "setup failed: replica2 ended before it was ready"));
        Targets t = new Targets(results, List.of());
        assertEquals("latency ratio n/a, projected throughput ratio n/a, box throughput n/a req/s", t.finalLine());
        assertFalse(t.headlineMeasured());
        assertEquals("latency ratio n/a, projected throughput ratio n/a, box throughput n/a req/s",
                new Targets(List.of(), List.of()).finalLine());
    }

    @Test
    void theTargetsAgainstBftSmartCompareConfigurationIMacWithThePeerMeasuredBackToBack() {
        List<PointResult> results = List.of(
                SampleResults.ok(UNREP_MAC, 10, 8, 10.0, 400, 2.0),
                SampleResults.ok(C1_MAC, 10, 1, 9.0, 110, 1.5),
                SampleResults.ok(C1_MAC, 10, 8, 18.0, 900, 0.6),
                SampleResults.ok(BenchSetup.bft(Configuration.II, SecurityProfile.MAC), 10, 8, 5.0, 5000, 0.1));
        List<PeerResult> peer = List.of(PeerCsvTest.measured(8, 1600, 5.0, 0.25),
                PeerCsvTest.measured(1, 300, 3.5, 1.4));
        List<Targets.Row> rows = new Targets(results, peer).rows();
        // 900 / 1600 = 56 % >= 50 %; the C-II row is not ours
        assertEquals(Boolean.TRUE, rows.get(2).met(), rows.get(2).toString());
        assertEquals("56 % (900 req/s / 1,600 req/s)", rows.get(2).figure());
        // 0.6 / 0.25 = 2.4 <= 3
        assertEquals(Boolean.TRUE, rows.get(3).met(), rows.get(3).toString());
        assertEquals("2.40 (busiest replica 0.600 ms / 0.250 ms per BFT-SMaRt replica)", rows.get(3).figure());
        // 9.0 / 3.5 = 2.57 <= 3
        assertEquals(Boolean.TRUE, rows.get(4).met(), rows.get(4).toString());
        assertEquals("2.57 (9.00 ms / 3.50 ms)", rows.get(4).figure());

        List<PeerResult> faster = List.of(PeerCsvTest.measured(8, 2000, 4.0, 0.1),
                PeerCsvTest.measured(1, 500, 2.0, 1.0));
        rows = new Targets(results, faster).rows();
        assertEquals(Boolean.FALSE, rows.get(2).met(), "900 / 2000 = 45 % < 50 %");
        assertEquals(Boolean.FALSE, rows.get(3).met(), "0.6 / 0.1 = 6 > 3");
        assertEquals(Boolean.FALSE, rows.get(4).met(), "9.0 / 2.0 = 4.5 > 3");
    }

    @Test
    void aSkippedPeerLeavesItsTargetsUncheckedWithTheReason() {
        List<PointResult> results = List.of(SampleResults.ok(C1_MAC, 10, 1, 9.0, 110, 1.5),
                SampleResults.ok(C1_MAC, 10, 8, 18.0, 900, 0.6));
        List<PeerResult> peer = List.of(PeerResult.skipped(8, 287, "no BFT-SMaRt runner at /x/run.py"),
                PeerCsvTest.measured(1, 300, 3.5, 1.4));
        List<Targets.Row> rows = new Targets(results, peer).rows();
        assertNull(rows.get(2).met());
        assertEquals("not measured: BFT-SMaRt skipped: no BFT-SMaRt runner at /x/run.py", rows.get(2).figure());
        assertNull(rows.get(3).met());
        assertEquals(Boolean.TRUE, rows.get(4).met(), "the 1-client row was measured");
        rows = new Targets(List.of(SampleResults.failed(C1_MAC, 10, 1, "setup failed")), peer).rows();
        assertEquals("not measured: C-I mac's point failed", rows.get(4).figure());
    }
}
