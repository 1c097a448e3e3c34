package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.bftws.config.SecurityProfile;
import org.junit.jupiter.api.Test;

import picocli.CommandLine.ParameterException;

/** {@code ./bftws measure}: what its command line means, and how it reads the replicas' timings. */
class MeasureOptionsTest {

    @Test
    void allRunsTheFourExperimentsInOrderAndOptionsMayComeFirst() {
        MeasureOptions o = MeasureOptions.parse(new String[] {"--quick", "all", "--security", "none"});
        assertEquals(List.of("checkpoint", "transfer", "viewchange", "failover"), o.what());
        assertTrue(o.quick());
        assertEquals(SecurityProfile.NONE, o.security());
    }

    @Test
    void anUnknownExperimentOrNoneAtAllIsRefusedNamingTheChoices() {
        ParameterException unknown = assertThrows(ParameterException.class,
                () -> MeasureOptions.parse(new String[] {"throughput"}));
        assertTrue(unknown.getMessage().contains("checkpoint, transfer, viewchange, failover or all"),
                unknown.getMessage());
        assertThrows(ParameterException.class, () -> MeasureOptions.parse(new String[] {"--keep"}));
        assertThrows(ParameterException.class, () -> MeasureOptions.parse(new String[] {"checkpoint", "transfer"}));
    }

    @Test
    void aReplicasMeasurementsLineIsReadBackSeriesBySeries() {
        Map<String, String> f = ReplicaGroup.fields("view=3 stable=40 executed=47 checkpoint=4/12.50/11.00/20.25/9.00"
                + " until-stable=0/-/-/-/- transfer=1/812.00/812.00/812.00/812.00 new-view=0/-/-/-/-"
                + " view-change=2/900.00/900.00/1100.00/700.00 checkpoint-bytes=8100 transfer-bytes=-1");
        ReplicaTimings t = ReplicaTimings.of(f);
        assertEquals(3, t.view());
        assertEquals(40, t.stable());
        assertEquals(47, t.executed());
        assertEquals(0, t.series("until-stable").count());
        assertEquals(new ReplicaTimings.Series(4, 12.5, 11, 20.25, 9), t.series("checkpoint"));
        assertEquals(0, t.series("new-view").count());
        assertEquals(700, t.series("view-change").lastMs());
        assertEquals(8100, t.checkpointBytes());
        assertEquals("7.9 KB", ReplicaTimings.bytes(t.checkpointBytes()));
    }

    @Test
    void theFailoverMedianOfAnEvenNumberOfKillsIsTheMeanOfTheMiddleTwo() {
        assertEquals(3_000, FailoverFigures.median(List.of(1_000.0, 2_000.0, 4_000.0, 9_000.0)));
        assertEquals(2_000, FailoverFigures.median(List.of(1_000.0, 2_000.0, 9_000.0)));
    }

    @Test
    void theViewChangeExperimentFillsTheLogToKMinusOneSlotsWhereverItStands() {
        assertEquals(49, ViewChangeFigures.slotsToAdd(0, 50));
        assertEquals(0, ViewChangeFigures.slotsToAdd(49, 50));
        assertEquals(9, ViewChangeFigures.slotsToAdd(40, 50));
        assertEquals(49, ViewChangeFigures.slotsToAdd(50, 50)); // a whole interval not yet stable: the next one
        assertEquals(5, ViewChangeFigures.slotsToAdd(3, 9));
    }

    @Test
    void elementsChooseTheStateSizesOfCheckpointAndTransferAndBadSizesAreRefused() {
        MeasureOptions o = MeasureOptions.parse(new String[] {"transfer", "--quick", "--elements", "0,100000"});
        assertEquals(List.of(0, 100_000), o.sizes(List.of(1), List.of(2)));
        assertEquals(List.of(2), MeasureOptions.parse(new String[] {"transfer", "--quick"}).sizes(List.of(1), List.of(2)));
        assertEquals(List.of(1), MeasureOptions.parse(new String[] {"transfer"}).sizes(List.of(1), List.of(2)));
        ParameterException bad = assertThrows(ParameterException.class,
                () -> MeasureOptions.parse(new String[] {"transfer", "--elements", "10k"}));
        assertTrue(bad.getMessage().contains("--elements"), bad.getMessage());
        assertThrows(ParameterException.class, () -> MeasureOptions.parse(new String[] {"transfer", "--elements", "-1"}));
    }
}
