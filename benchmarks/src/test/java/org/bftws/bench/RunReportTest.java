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
}
