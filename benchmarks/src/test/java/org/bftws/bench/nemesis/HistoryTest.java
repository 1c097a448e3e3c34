package org.bftws.bench.nemesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.bftws.bench.nemesis.Operation.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {

    static Operation put(int process, String key, long value, long call, Long ret, Outcome outcome) {
        return new Operation(process, "put", key, value, null, call, ret, outcome, false, null, false);
    }

    static Operation get(int process, String key, Long result, long call, long ret) {
        return new Operation(process, "get", key, null, null, call, ret, Outcome.OK, result != null, result, false);
    }

    @Test
    void eachOperationIsOneJsonLineInTheFormTheCheckerReadsAndReadsBackTheSame() {
        Operation cas = new Operation(3, "cas", "k1", 9L, 4L, 120, 250L, Outcome.OK, true, 9L, true);
        assertEquals("{\"process\":3,\"op\":\"cas\",\"key\":\"k1\",\"value\":9,\"expected\":4,\"call\":120,"
                + "\"return\":250,\"outcome\":\"ok\",\"swapped\":true,\"current\":9}", cas.toJson());
        Operation unknown = new Operation(1, "put", "k\"2", 7L, null, 10, null, Outcome.UNKNOWN, false, null, false);
        assertEquals("{\"process\":1,\"op\":\"put\",\"key\":\"k\\\"2\",\"value\":7,\"call\":10,"
                + "\"outcome\":\"unknown\"}", unknown.toJson());
        Operation missing = get(0, "k0", null, 5, 6);
        assertEquals("{\"process\":0,\"op\":\"get\",\"key\":\"k0\",\"call\":5,\"return\":6,\"outcome\":\"ok\","
                + "\"found\":false}", missing.toJson());
        Operation replaced = new Operation(2, "put", "k0", 8L, null, 1, 2L, Outcome.OK, true, 5L, false);
        for (Operation o : List.of(cas, unknown, missing, replaced, get(4, "k2", 11L, 3, 4))) {
            assertEquals(o, Operation.parse(o.toJson()));
        }
    }

    @Test
    void aLineThatIsNotAnOperationIsRefusedWithItsLineNumber(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("history.jsonl");
        Files.writeString(file, get(0, "k", 1L, 1, 2).toJson() + "\n{\"process\":1,\"op\":\"inc\",\"key\":\"k\"}\n");
        IOException e = assertThrows(IOException.class, () -> History.read(file));
        assertTrue(e.getMessage().contains("history.jsonl:2") && e.getMessage().contains("inc"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Operation.parse("not json"));
        assertThrows(IllegalArgumentException.class, () -> new Operation(0, "put", "k", null, null, 0, 1L,
                Outcome.OK, false, null, false));
    }

    @Test
    void theFinalStateLosesAnAcknowledgedWriteWhenItHoldsAnEarlierValue() {
        History h = new History(List.of(
                put(0, "a", 1, 0, 10L, Outcome.OK),
                put(1, "a", 2, 20, 30L, Outcome.OK),
                put(2, "a", 3, 25, null, Outcome.UNKNOWN),
                put(3, "b", 4, 0, 10L, Outcome.OK)));
        assertEquals(List.of(), h.lostWrites(Map.of("a", 2L, "b", 4L)));
        assertEquals(List.of(), h.lostWrites(Map.of("a", 3L, "b", 4L)), "the unknown put may have come last");
        List<String> lost = h.lostWrites(Map.of("a", 1L, "b", 4L));
        assertEquals(1, lost.size(), lost.toString());
        assertTrue(lost.get(0).startsWith("a ends with 1, written before the acknowledged put of 2"), lost.get(0));
        Map<String, Long> noB = new HashMap<>();
        noB.put("a", 2L);
        assertEquals(List.of("b ends with null, which no call wrote"), h.lostWrites(noB));
    }

    @Test
    void aFailedCallWhoseValueIsSeenIsReported() {
        History h = new History(List.of(
                put(0, "a", 1, 0, 10L, Outcome.OK),
                put(1, "a", 2, 20, 30L, Outcome.FAILED),
                get(2, "a", 2L, 40, 50)));
        assertEquals(List.of("the failed put of 2 was seen by a get of a", "the failed put of 2 is in the final "
                + "state of a"), h.failedButSeen(Map.of("a", 2L)));
        assertEquals(List.of(), new History(List.of(put(0, "a", 1, 0, 10L, Outcome.FAILED)))
                .failedButSeen(Map.of("a", 5L)));
    }

    @Test
    void unavailabilityIsTheLongestStretchWithoutAnOkCompletionAndServiceAfterAHealIsTheFirstOne() {
        History h = new History(List.of(
                get(0, "a", null, 0, 1_000),
                get(0, "a", null, 1_000, 2_000),
                put(1, "a", 5, 2_000, null, Outcome.UNKNOWN),
                get(2, "a", 5L, 2_500, 9_000),
                get(2, "a", 5L, 9_000, 9_500)));
        assertEquals(7_000, h.longestUnavailableNanos(0, 10_000));
        assertEquals(500, h.servingAgainAfter(8_500));
        assertEquals(-1, h.servingAgainAfter(9_600));
        assertEquals(4, h.count(Outcome.OK));
        assertEquals(1, h.count(Outcome.UNKNOWN));
    }
}
