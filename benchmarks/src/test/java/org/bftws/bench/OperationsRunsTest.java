package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.bftws.server.Cli;
import org.junit.jupiter.api.Test;

import picocli.CommandLine.ParameterException;

/**
 * The operations runs ({@code ./bftws soak}, {@code measure sequences}, {@code measure overload}): what their command
 * lines mean, how they judge a replica's log, how they read the status page and what their result lines say.
 */
class OperationsRunsTest {

    private static AppendClients.Call ok(String value, int count) {
        return new AppendClients.Call(value, true, count, "d", 0, 0, 0, null);
    }

    private static AppendClients.Call failed(String value) {
        return new AppendClients.Call(value, false, 0, null, -1, 0, 0, "timeout");
    }

    @Test
    void aLogWithEveryAcceptedAppendOnceAtItsReportedPositionIsExactlyOnceEvenWithAnUnansweredCallExecuted() {
        List<AppendClients.Call> calls = List.of(ok("a", 1), failed("b"), ok("c", 3), failed("d"));
        ExactlyOnce.Result r = ExactlyOnce.check(List.of("a", "b", "c"), calls);
        assertTrue(r.holds(), r.examples().toString());
        assertEquals("exactly once", r.summary());
    }

    @Test
    void aDuplicatedALostAMisplacedAndAnUnknownAppendAreEachCountedAndNamed() {
        List<AppendClients.Call> calls = List.of(ok("a", 1), ok("b", 2), ok("c", 3), ok("d", 4));
        ExactlyOnce.Result r = ExactlyOnce.check(List.of("a", "a", "c", "x"), calls);
        assertFalse(r.holds());
        assertEquals(1, r.duplicated());
        assertEquals(2, r.lost(), "b and d");
        assertEquals(0, r.misplaced(), "c is at 3 as its reply said");
        assertEquals(1, r.unknown());
        assertEquals("1 duplicated, 2 lost, 1 unknown", r.summary());
        assertTrue(r.examples().contains("a executed twice (positions 1 and 2)"), r.examples().toString());
        ExactlyOnce.Result shifted = ExactlyOnce.check(List.of("b", "a"), List.of(ok("a", 1), ok("b", 2)));
        assertEquals(2, shifted.misplaced());
    }

    @Test
    void theStatusPageFiguresAreReadByNameAndAMissingOneReadsMinusOne() {
        String json = "{\"party\":\"replica1\",\"node\":{\"heldExchanges\":0,\"heapUsedBytes\":52428800,"
                + "\"heapMaxBytes\":268435456},\"replica\":{\"stableCheckpoint\":256,\"stableCheckpointBytes\":4096,"
                + "\"replyEntries\":3,\"counters\":{}}}";
        assertEquals(new ReplicaStatus(52_428_800, 3, 4096, 256), ReplicaStatus.parse(json));
        assertEquals(new ReplicaStatus(-1, -1, -1, -1), ReplicaStatus.parse("{\"replica\":null}"));
        assertEquals(50, ReplicaStatus.megabytes(52_428_800));
    }

    @Test
    void theResultLinesSayWhatTheIssueAsksFor() {
        assertEquals("soak: 120 ok, 0 failed, 19 restarts, states equal, exactly once, heap max 150 MB",
                Soak.resultLine(120, 0, 19, true, "exactly once", 150L * 1024 * 1024));
        assertEquals("soak: 5 ok, 2 failed, 1 restarts, states differ, 1 lost, heap max 0 MB",
                Soak.resultLine(5, 2, 1, false, "1 lost", 0));
        assertEquals("sequences: 100000 opened, 1 live entries, heap growth 0.5 MB, checkpoint 0.4 KB",
                SequenceFigures.resultLine(100_000, 1, 512 * 1024, 418));
        OverloadFigures.Level level = new OverloadFigures.Level(64, 900, 0, 15.04, "exactly once", true, 12, 30,
                100L * 1024 * 1024, false);
        assertEquals("overload: 64 clients: 900 ok, 0 failed, 15.0 req/s, exactly once, states equal, 12 retry-later"
                + " faults, 30 exchanges let go, heap max 100 MB, no OutOfMemoryError", level.line());
        assertTrue(level.passed());
        assertEquals("| 64 | 900 | 0 | 15.0 | exactly once | states equal | 12 | 30 | 100 | no OutOfMemoryError |",
                OverloadFigures.row(level.line()));
    }

    @Test
    void theSoaksLiveHeapSummaryGivesTheFirstTheHighestAndTheLastReadingOfEachReplica() {
        assertEquals("none", Soak.liveHeapSummary(List.of()));
        assertEquals("first [20, 21, 22, 23], highest [40, 21, 30, 23], last [25, 18, 30, -1] (3 rounds)",
                Soak.liveHeapSummary(List.of(new long[] {20, 21, 22, 23}, new long[] {40, 19, 30, 20},
                        new long[] {25, 18, 30, -1})));
    }

    @Test
    void soakOptionsHaveTheIssuesDefaultsAndAKilledReplicaMustComeBackBeforeTheNextKill() {
        Soak.Options o = Cli.parse(new SoakCommand(), "--minutes", "5").options();
        assertEquals(5 * 60, o.seconds());
        assertEquals(8, o.clients());
        assertEquals(180, o.restartEvery());
        assertEquals(10, o.down());
        SoakCommand c = Cli.parse(new SoakCommand(), "--restart-every", "20", "--down", "20");
        ParameterException e = assertThrows(ParameterException.class, c::options);
        assertTrue(e.getMessage().contains("--down (20 s) must be shorter than --restart-every (20 s)"),
                e.getMessage());
        assertThrows(ParameterException.class, () -> Cli.parse(new SoakCommand(), "--clients", "0").options());
        assertEquals(30, Cli.parse(new SoakCommand(), "--seconds", "30", "--restart-every", "10", "--down", "3")
                .options().seconds());
        ParameterException both = assertThrows(ParameterException.class, () -> Cli.parse(new SoakCommand(),
                "--seconds", "30", "--minutes", "1").options());
        assertTrue(both.getMessage().contains("give one"), both.getMessage());
        assertThrows(ParameterException.class, () -> Cli.parse(new SoakCommand(), "--seconds", "5").options());
    }

    @Test
    void sequencesAndOverloadRunOnlyWhenNamedWithTheirOwnOptions() {
        MeasureOptions s = MeasureOptions.parse("sequences", "--count", "100000");
        assertEquals(List.of("sequences"), s.what());
        assertEquals(100_000, s.count());
        MeasureOptions o = MeasureOptions.parse("overload");
        assertEquals(List.of(8, 64, 256), o.clients());
        assertEquals(60, o.seconds());
        assertEquals(List.of(8, 32), MeasureOptions.parse("overload", "--clients", "8, 32").clients());
        assertEquals(MeasureOptions.EXPERIMENTS, MeasureOptions.parse("all").what(), "all: the recovery figures");
        ParameterException bad = assertThrows(ParameterException.class,
                () -> MeasureOptions.parse("overload", "--clients", "8,many"));
        assertTrue(bad.getMessage().contains("--clients"), bad.getMessage());
        assertThrows(ParameterException.class, () -> MeasureOptions.parse("overload", "--clients", "0"));
        assertThrows(ParameterException.class, () -> MeasureOptions.parse("sequences", "--count", "0"));
    }
}
