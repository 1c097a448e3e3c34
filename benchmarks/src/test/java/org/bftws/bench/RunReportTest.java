package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** What the testbed's report reads from a replica's counters. */
class RunReportTest {

    @Test
    void aReplicaExecutedWhatItDeliveredInOrderAndTheReadsItExecutedUnordered() {
        assertEquals(52, RunReport.executed("delivered=2 accepted=2 refused=0 view=0 stable=0 committed-batches=2 "
                + "read-only-requests-executed=50 requests-executed=2"));
        assertEquals(51, RunReport.executed("delivered=51 accepted=51 refused=0 view=0 stable=0"));
        assertEquals(-1, RunReport.executed("unavailable"));
    }

    @Test
    void countersHaveSettledWhenOnlyThePbftTrafficOfAnIdleGroupStillMoves() {
        String before = "delivered=51 accepted=51 view=0 PBFT-channel-bytes-sent=89285 PBFT-messages-sent=600 "
                + "committed-batches=51";
        String idle = "delivered=51 accepted=51 view=0 PBFT-channel-bytes-sent=89561 PBFT-messages-sent=604 "
                + "committed-batches=51";
        String executing = "delivered=52 accepted=52 view=0 PBFT-channel-bytes-sent=89561 PBFT-messages-sent=604 "
                + "committed-batches=52";
        assertEquals(RunReport.withoutTraffic(before), RunReport.withoutTraffic(idle));
        org.junit.jupiter.api.Assertions.assertNotEquals(RunReport.withoutTraffic(idle),
                RunReport.withoutTraffic(executing));
    }
}
