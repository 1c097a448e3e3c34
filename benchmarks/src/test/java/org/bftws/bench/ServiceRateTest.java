package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;

import org.junit.jupiter.api.Test;

class ServiceRateTest {

    @Test
    void theServiceRateIsTheRateOfTheFPlusFirstBusiestExecutingNode() {
        ServiceRate rate = new ServiceRate(Set.of("replica0", "replica1", "replica2", "replica3"), 1);
        for (int i = 0; i < 4; i++) {
            rate.started("replica" + i, "delivered=1000 accepted=1000 refused=0");
        }
        // executed in a 2 s window: 1000, 900, 400 (a lagging replica), 950 requests
        rate.ended("replica0", "delivered=2000 accepted=2000");
        rate.ended("replica1", "delivered=1900 accepted=2000");
        rate.ended("replica2", "delivered=1400 accepted=2000");
        rate.ended("replica3", "delivered=1950 accepted=2000 view=0 stable=128");
        // the second busiest (f+1 = 2) completes the clients' votes: 950 requests / 2 s
        assertEquals(475.0, rate.rate(2.0), 1e-9);
        assertTrue(Double.isNaN(rate.viewChanges()), "these lines have no view: unreplicated nodes");
    }

    @Test
    void viewChangesAreTheHighestViewAtTheEndLessTheHighestAtTheStart() {
        // Configuration III: the agreement nodes report views, the execution nodes only what they executed
        ServiceRate rate = new ServiceRate(Set.of("exec0", "exec1", "exec2"), 1);
        rate.started("replica0", "delivered=0 view=2 stable=128");
        rate.started("replica1", "delivered=0 view=3 stable=128");
        rate.started("exec0", "delivered=10");
        rate.ended("replica0", "delivered=0 view=5 stable=256");
        rate.ended("replica1", "delivered=0 view=4 stable=256");
        rate.ended("exec0", "delivered=30");
        assertEquals(2.0, rate.viewChanges(), 1e-9);
    }

    @Test
    void nodesThatDoNotExecuteAreNotCounted() {
        // Configuration II: replica3 only orders; its counter stays at 0 and must not pass for the service's
        ServiceRate rate = new ServiceRate(Set.of("replica0", "replica1", "replica2"), 1);
        for (int i = 0; i < 4; i++) {
            rate.started("replica" + i, "delivered=0");
        }
        rate.ended("replica0", "delivered=100");
        rate.ended("replica1", "delivered=100");
        rate.ended("replica2", "delivered=90");
        rate.ended("replica3", "delivered=0");
        assertEquals(100.0, rate.rate(1.0), 1e-9);
    }

    @Test
    void withFewerThanFPlusOneNodesReadAtBothEdgesTheRateIsUnknown() {
        ServiceRate rate = new ServiceRate(Set.of("replica0", "replica1"), 1);
        rate.started("replica0", "delivered=5");
        rate.started("replica1", "delivered=5");
        rate.ended("replica0", "delivered=50"); // replica1 did not answer at the end
        assertTrue(Double.isNaN(rate.rate(1.0)));
    }

    @Test
    void theDeliveredFieldIsReadFromAStatsLineAndAMalformedOneIsIgnored() {
        assertEquals(42L, ServiceRate.delivered("delivered=42 accepted=43").orElseThrow());
        assertTrue(ServiceRate.delivered("accepted=43").isEmpty());
        assertTrue(ServiceRate.delivered("delivered=lots").isEmpty());
    }
}
