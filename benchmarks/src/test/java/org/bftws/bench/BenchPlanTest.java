package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.bftws.config.Configuration;
import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;

class BenchPlanTest {

    @Test
    void theFullPlanMeasuresEveryPointForTheBaselinesAndEachConfigurationOfEachProfile() {
        BenchPlan plan = BenchPlan.of(BenchOptions.parse(new String[] {"--home", "/x/.bftws"}));
        List<BenchSetup> setups = plan.stages().stream().map(BenchPlan.Stage::setup).toList();
        assertEquals(BenchSetup.unreplicated(SecurityProfile.NONE), setups.get(0), "unsigned baseline first");
        for (SecurityProfile p : List.of(SecurityProfile.MAC, SecurityProfile.WSSEC)) {
            assertTrue(setups.contains(BenchSetup.unreplicated(p)), "signed baseline " + p);
            for (Configuration c : Configuration.values()) {
                assertTrue(setups.contains(BenchSetup.bft(c, p)), c + " " + p);
            }
        }
        assertTrue(setups.contains(BenchSetup.threeTier(SecurityProfile.MAC)), "the 3-tier echo, C-I mac");
        assertTrue(setups.contains(BenchSetup.threeTier(SecurityProfile.WSSEC)), "the 3-tier echo, C-I wssec");
        for (BenchPlan.Stage s : plan.stages()) {
            if (s.setup().kind() != BenchSetup.Kind.THREE_TIER) {
                assertEquals(16, s.points().size(), s.setup().label());
            } else {
                assertEquals(List.of(new BenchPoint(100, 1), new BenchPoint(100, 2), new BenchPoint(100, 4),
                        new BenchPoint(100, 8)), s.points(), "Fig. 8(b): 100 elements, clients 1..8");
            }
        }
        assertEquals(9 * 16 + 2 * 4, plan.points());
    }

    @Test
    void everySetupMeasuresTheHeadlinePointLastSoBothSidesOfItsRatiosAreWarm() {
        BenchPlan plan = BenchPlan.of(BenchOptions.parse(new String[] {"--home", "/x/.bftws"}));
        BenchPoint headline = new BenchPoint(BenchPlan.HEADLINE_SIZE, BenchPlan.HEADLINE_CLIENTS);
        for (BenchPlan.Stage s : plan.stages()) {
            if (s.setup().kind() != BenchSetup.Kind.THREE_TIER) {
                assertEquals(headline, s.points().get(s.points().size() - 1), s.setup().label());
                assertEquals(1, s.points().stream().filter(headline::equals).count(), s.setup().label());
            }
        }
    }

    @Test
    void theQuickPlanHoldsTheHeadlinePointForBothProfilesAndTheirBaselines() {
        BenchPlan plan = BenchPlan.quick();
        BenchPoint headline = new BenchPoint(BenchPlan.HEADLINE_SIZE, BenchPlan.HEADLINE_CLIENTS);
        for (SecurityProfile p : List.of(SecurityProfile.MAC, SecurityProfile.WSSEC)) {
            for (BenchSetup s : List.of(BenchSetup.bft(Configuration.I, p), BenchSetup.unreplicated(p))) {
                assertTrue(plan.stages().stream().anyMatch(st -> st.setup().equals(s)
                        && st.points().contains(headline)), s.label());
            }
        }
    }

    @Test
    void bftSmartRunsRightAfterConfigurationIMacAtEightClientsThenOne() {
        BenchSetup c1mac = BenchSetup.bft(Configuration.I, SecurityProfile.MAC);
        for (BenchPlan plan : List.of(BenchPlan.of(BenchOptions.parse(new String[] {"--home", "/x/.bftws"})),
                BenchPlan.quick())) {
            BenchPlan.PeerRuns peer = plan.peer().orElseThrow();
            assertEquals(c1mac, plan.stages().get(peer.after()).setup(), "back to back with the headline's setup");
            assertEquals(List.of(8, 1), peer.clients());
        }
    }

    @Test
    void anOnlyRunMeasuresThePeerOnlyWhenItIsNamed() {
        assertTrue(BenchPlan.of(BenchOptions.parse(new String[] {"--only", "c1-mac", "--home", "/x/.bftws"})).peer()
                .isEmpty());
        BenchPlan both = BenchPlan.of(BenchOptions.parse(new String[] {"--only", "bftsmart,c1-mac", "--home",
                "/x/.bftws"}));
        assertEquals(0, both.peer().orElseThrow().after());
        BenchPlan alone = BenchPlan.of(BenchOptions.parse(new String[] {"--only", "bftsmart", "--home", "/x/.bftws"}));
        assertEquals(List.of(), alone.stages());
        assertEquals(-1, alone.peer().orElseThrow().after(), "without C-I mac, before the first setup");
        assertEquals(0, alone.points());
    }

    @Test
    void setupIdsReadBackAsTheSameSetup() {
        for (SecurityProfile p : SecurityProfile.values()) {
            for (BenchSetup s : List.of(BenchSetup.unreplicated(p), BenchSetup.bft(Configuration.I, p),
                    BenchSetup.bft(Configuration.II, p), BenchSetup.bft(Configuration.III, p),
                    BenchSetup.threeTier(p))) {
                assertEquals(s, BenchSetup.parse(s.id()));
            }
        }
        assertEquals(7, BenchSetup.bft(Configuration.III, SecurityProfile.MAC).nodes());
    }
}
