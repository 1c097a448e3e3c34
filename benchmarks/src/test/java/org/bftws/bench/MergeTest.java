package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;

class MergeTest {

    private static final BenchSetup UNREP = BenchSetup.unreplicated(SecurityProfile.MAC);
    private static final BenchSetup C1 = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
    private static final BenchSetup C2 = BenchSetup.bft(Configuration.II, SecurityProfile.MAC);

    @Test
    void aSetupMeasuredAgainReplacesAllItsRowsInPlaceAndTheOthersStay() {
        List<PointResult> earlier = List.of(SampleResults.ok(UNREP, 10, 1, 5, 200, 2),
                SampleResults.failed(C1, 10, 1, "setup failed"), SampleResults.failed(C1, 10, 8, "not run"),
                SampleResults.ok(C2, 10, 1, 50, 20, 9));
        List<PointResult> again = List.of(SampleResults.ok(C1, 10, 8, 18, 250, 2.5),
                SampleResults.ok(C1, 10, 1, 12, 80, 3));
        List<PointResult> merged = BenchRunner.merge(earlier, again);
        assertEquals(List.of(earlier.get(0), again.get(0), again.get(1), earlier.get(3)), merged);
    }

    @Test
    void aSetupNewToTheFileIsAddedAtTheEnd() {
        List<PointResult> earlier = List.of(SampleResults.ok(UNREP, 10, 1, 5, 200, 2));
        List<PointResult> again = List.of(SampleResults.ok(C2, 10, 1, 50, 20, 9));
        assertEquals(List.of(earlier.get(0), again.get(0)), BenchRunner.merge(earlier, again));
    }

    @Test
    void theHeadlinePointRunsLastAndOnlyNarrowsThePlanToTheSetupsNamed() {
        BenchPlan plan = BenchPlan.of(BenchOptions.parse(new String[] {"--only", "c1-mac,unrep-mac",
                "--home", "/x/.bftws"}));
        assertEquals(List.of(UNREP, C1), plan.stages().stream().map(BenchPlan.Stage::setup).toList());
        assertEquals(16, plan.stages().get(1).points().size());
        assertEquals(new BenchPoint(10, 8), plan.stages().get(1).points().get(15));
    }

    @Test
    void onlyRefusesASetupThePlanDoesNotHave() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BenchPlan.of(BenchOptions.parse(new String[] {"--only", "c4-mac", "--home", "/x/.bftws"})));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("c4-mac"), e.getMessage());
    }
}
