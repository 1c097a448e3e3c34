package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Refusals from one peer are logged once in full, then summarised; the memory of peers is bounded. */
class RefusalLogTest {
    private long now;
    private final RefusalLog log = new RefusalLog(LoggerFactory.getLogger(RefusalLogTest.class), 4,
            Duration.ofSeconds(60), () -> now);

    private List<String> refuse(int times, String peer, String reason) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= times; i++) {
            Optional<String> line = log.lineFor(peer, reason, reason + ": the whole story", "UNSIGNED refusals: " + i);
            line.ifPresent(lines::add);
        }
        return lines;
    }

    @Test
    void aThousandRefusalsFromOnePeerWriteTenLinesTheFirstInFullThenSummariesOnPowersOfTwo() {
        List<String> lines = refuse(1000, "10.0.0.5", "unsigned");
        assertEquals(10, lines.size(), String.join("\n", lines)); // 1, 2, 4, ..., 512
        assertEquals("refused a message from 10.0.0.5: unsigned: the whole story [UNSIGNED refusals: 1]", lines.get(0));
        assertEquals("refused 512 messages from 10.0.0.5: unsigned (256 in the last 1 s) [UNSIGNED refusals: 512]",
                lines.get(9));
        now += Duration.ofSeconds(61).toNanos();
        List<String> more = refuse(1, "10.0.0.5", "unsigned");
        assertEquals(List.of("refused 1,001 messages from 10.0.0.5: unsigned (489 in the last 61 s)"
                + " [UNSIGNED refusals: 1]"), more);
    }

    @Test
    void aSummaryComesAtMostOnceAMinuteBetweenPowersOfTwo() {
        refuse(1024, "10.0.0.5", "unsigned");
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1000; i++) { // one refusal a second for 1,000 s: the count stays below 2,048
            now += Duration.ofSeconds(1).toNanos();
            lines.addAll(refuse(1, "10.0.0.5", "unsigned"));
        }
        assertEquals(16, lines.size(), String.join("\n", lines)); // 1,000 s / 60 s, then 2,048 is not reached
        assertTrue(lines.get(0).contains("(60 in the last 60 s)"), lines.get(0));
    }

    @Test
    void eachPeerAndReasonStartsWithAFullLine() {
        assertEquals(1, refuse(1, "10.0.0.5", "unsigned").size());
        assertEquals(1, refuse(1, "10.0.0.6", "unsigned").size());
        assertTrue(refuse(1, "10.0.0.5", "tampered").get(0).startsWith("refused a message from 10.0.0.5: tampered"));
    }

    @Test
    void theMemoryOfPeersIsBoundedAndTheLeastRecentOneIsForgottenFirst() {
        for (int p = 0; p < 100; p++) {
            refuse(2, "10.0.1." + p, "unsigned");
        }
        assertEquals(4, log.pairs());
        assertEquals(0, refuse(1, "10.0.1.99", "unsigned").size(), "still remembered: its 3rd refusal is no line");
        assertTrue(refuse(1, "10.0.1.0", "unsigned").get(0).startsWith("refused a message from 10.0.1.0"),
                "forgotten, so its next refusal is a full line again");
    }

    @Test
    void aReasonWithLineBreaksIsStillOneLine() {
        String line = log.lineFor("10.0.0.7", "not a SOAP envelope", "unexpected character\n at [row,col]: [1,1]\r\nforged: entry",
                "malformed requests: 1").orElseThrow();
        assertEquals("refused a message from 10.0.0.7: unexpected character at [row,col]: [1,1] forged: entry"
                + " [malformed requests: 1]", line);
    }
}
