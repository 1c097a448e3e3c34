package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** BFT-SMaRt's runner prints one result line; the suite reads its figures from it and nothing else. */
class PeerLineTest {

    @Test
    void theRunnersResultLinesAreReadWithEveryFigure() {
        // printed by run.py on this machine (20:27 UTC, load about 1.6)
        PeerLine eight = PeerLine.parse(
                "bftsmart: 8 clients, 300-byte requests, 829 ops/s, mean 9.65 ms, replica cpu 0.495 ms/op").get();
        assertEquals(new PeerLine(8, 300, 829, 9.65, 0.495), eight);
        PeerLine one = PeerLine.parse(
                "bftsmart: 1 clients, 300-byte requests, 223 ops/s, mean 4.49 ms, replica cpu 2.022 ms/op").get();
        assertEquals(new PeerLine(1, 300, 223, 4.49, 2.022), one);
        // the figures of the runner's README, as its f-string writes them
        assertEquals(new PeerLine(8, 100, 1627, 4.92, 0.26), PeerLine.parse(
                "bftsmart: 8 clients, 100-byte requests, 1627 ops/s, mean 4.92 ms, replica cpu 0.260 ms/op").get());
    }

    @Test
    void aCpuFigureTheRunnerCouldNotMeasureIsMissingNotZero() {
        // run.py prints Python's nan when its measuring window was empty
        PeerLine line = PeerLine.parse(
                "bftsmart: 1 clients, 287-byte requests, 86 ops/s, mean 11.61 ms, replica cpu nan ms/op").get();
        assertTrue(Double.isNaN(line.replicaCpuMsPerOp()));
        assertEquals(11.61, line.meanMs());
    }

    @Test
    void linesThatAreNotAResultAreRefused() {
        for (String line : List.of("bftsmart: replicas did not start",
                "FileNotFoundError: [Errno 2] No such file or directory: '\u001b[0m\u001b[0m/root/.cache/bftsmart-681cec8'",
                "bftsmart: 8 clients, 300-byte requests, 829 ops/s, mean 9.65 ms",
                "bftsmart: 8 clients, 300-byte requests, -829 ops/s, mean 9.65 ms, replica cpu 0.495 ms/op",
                "bftsmart: 99999999999 clients, 300-byte requests, 829 ops/s, mean 9.65 ms, replica cpu 0.495 ms/op",
                "")) {
            assertEquals(Optional.empty(), PeerLine.parse(line), line);
        }
    }

    @Test
    void aFailedRunIsExplainedByItsLastLineWithTerminalCodesShownAsText() {
        List<String> traceback = List.of("Traceback (most recent call last):",
                "  File \"/work/shared/peers/bftsmart/run.py\", line 38, in <module>",
                "FileNotFoundError: [Errno 2] No such file or directory: '\u001b[0m\u001b[0m/root/.cache/bftsmart-681cec8'",
                "");
        assertEquals(Optional.empty(), PeerLine.find(traceback));
        assertEquals("FileNotFoundError: [Errno 2] No such file or directory:"
                + " '\\x1b[0m\\x1b[0m/root/.cache/bftsmart-681cec8'", PeerLine.failure(traceback));
        assertEquals("no output", PeerLine.failure(List.of()));
    }

    @Test
    void theResultIsFoundAmongOtherOutput() {
        List<String> output = List.of("building...",
                "bftsmart: 8 clients, 287-byte requests, 567 ops/s, mean 14.11 ms, replica cpu 0.725 ms/op");
        assertEquals(567, PeerLine.find(output).get().opsPerSecond());
    }

    @Test
    void thePeersRequestsAreAsLongAsTheEchoElementOfOurTenElementRequest() {
        // <e:echo xmlns:e="http://bftws.org/samples/echo"> is 48 characters, each <e:item>m100-k</e:item> 23,
        // </e:echo> 9: 48 + 10 x 23 + 9
        assertEquals(287, PeerRun.requestBytes());
    }
}
