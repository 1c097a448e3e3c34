package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The per-address refusal budget: a token bucket per remote address, bursts of twice the rate, bounded memory. */
class RefusalBudgetTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    private int answered(RefusalBudget budget, String address, int tries) {
        int n = 0;
        for (int i = 0; i < tries; i++) {
            if (budget.tryAnswer(address)) {
                n++;
            }
        }
        return n;
    }

    @Test
    void anAddressGetsABurstOfTwiceTheRateThenTheRatePerSecond() {
        RefusalBudget budget = new RefusalBudget(50, 16, now::get);
        assertEquals(100, answered(budget, "10.0.0.5", 1000), "a burst of twice the rate, then nothing at once");
        now.addAndGet(1_000_000_000L);
        assertEquals(50, answered(budget, "10.0.0.5", 1000), "one second later: the rate");
        now.addAndGet(100_000_000_000L);
        assertEquals(100, answered(budget, "10.0.0.5", 1000), "an idle minute refills the burst, no more");
    }

    @Test
    void oneAddressOverItsRateLeavesOtherAddressesTheirWholeBudget() {
        RefusalBudget budget = new RefusalBudget(5, 16, now::get);
        assertEquals(10, answered(budget, "10.0.0.5", 50));
        assertFalse(budget.tryAnswer("10.0.0.5"));
        assertTrue(budget.tryAnswer("10.0.0.6"));
        assertEquals(9, answered(budget, "10.0.0.6", 50));
    }

    @Test
    void theNumberOfAddressesRememberedIsBoundedLeastRecentlyRefusedForgottenFirst() {
        RefusalBudget budget = new RefusalBudget(1, 3, now::get);
        for (int i = 0; i < 1000; i++) {
            budget.tryAnswer("10.0.0." + i);
        }
        assertEquals(3, budget.addresses());
    }
}
