package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A backup judges a pre-prepare's time against its clock when the pre-prepare first reached it. */
class PrePrepareArrivalsTest {

    private static PrePrepare pp(int view, long seq, String client) {
        return new PrePrepare(view, seq, new Batch(List.of(TestCluster.request(client, 1).ref()), 1_000), 0);
    }

    @Test
    void theFirstArrivalOfAPrePrepareCountsForEveryLaterCopy() {
        PrePrepareArrivals a = new PrePrepareArrivals(8);
        assertEquals(1_000, a.arrived(pp(0, 5, "c"), 1_000));
        assertEquals(1_000, a.arrived(pp(0, 5, "c"), 9_000), "the same pre-prepare, sent again or taken later");
        assertEquals(9_000, a.arrived(pp(0, 5, "d"), 9_000), "another batch for the slot is another pre-prepare");
        assertEquals(9_000, a.arrived(pp(1, 5, "c"), 9_000), "so is the same batch in another view");
    }

    @Test
    void whatItRemembersIsBoundedAndGoesWithTheStableCheckpoint() {
        PrePrepareArrivals a = new PrePrepareArrivals(3);
        for (long seq = 1; seq <= 10; seq++) {
            a.arrived(pp(0, seq, "c"), seq);
        }
        assertEquals(3, a.size());
        assertEquals(10, a.arrived(pp(0, 10, "c"), 99), "the newest are kept");
        a.discardUpTo(9);
        assertEquals(1, a.size());
    }
}
