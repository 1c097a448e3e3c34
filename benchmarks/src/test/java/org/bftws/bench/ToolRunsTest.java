package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tool commands of {@code ./bftws} that no other test runs, each briefly as the launcher runs it (the tools'
 * main class in a JVM of its own, client compiler only: {@link Jvm#SHORT_RUN}), so that a tool that breaks fails the
 * build: {@code wire-costs}, every experiment of {@code measure} and {@code soak}. Each must exit 0 and print the
 * figures it exists for, with nothing failed. The groups run without keys ({@code --security none}) where the tool's
 * own logic does not depend on them: the testbed's shapes run the profiles (TestbedShapesTest). {@code measure
 * sequences} keeps its default ({@code mac}): a party's limit of live sequences applies to authenticated parties.
 */
class ToolRunsTest {

    /** A run takes about a minute on two cores (transfer two); much longer only on a machine loaded far beyond. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);
    private static final Map<String, Long> SECONDS = new LinkedHashMap<>();

    /** The home of every run, its keys made by the test JVM ({@link SharedHome}). */
    private static Path home;

    @BeforeAll
    static void keys() throws IOException {
        home = SharedHome.withKeys();
    }

    /** What a run must have printed, given its output lines. */
    @FunctionalInterface
    interface Evidence {
        void check(List<String> lines);
    }

    private static String line(List<String> lines, String regex) {
        Pattern p = Pattern.compile(regex);
        return lines.stream().filter(l -> p.matcher(l).matches()).findFirst()
                .orElseThrow(() -> new AssertionError("no line matching " + regex));
    }

    private static List<String> rows(List<String> lines, String regex) {
        Pattern p = Pattern.compile(regex);
        return lines.stream().filter(l -> p.matcher(l).matches()).toList();
    }

    private static final String MS = "[0-9]+(?:\\.[0-9]+)?";

    static Stream<Arguments> tools() {
        List<Arguments> tools = new ArrayList<>();
        tools.add(tool("wire-costs --quick", lines -> {
            line(lines, "BFT-WS wire costs \\(.*\\)");
            assertEquals(3, rows(lines, "  \\w+.*: \\d+ bytes as a binary channel frame payload").size(), "Prepare, "
                    + "PrePrepare and ViewChange as binary frames");
        }));
        // the client party meets its limit of 48 live sequences: it abandoned some and terminated the others, no
        // replica refused one of its sequences, and the live entries came back
        tools.add(tool("measure sequences --quick --count 300", lines -> {
            Matcher opened = Pattern.compile("sequences: 300 opened \\((\\d+) terminated, (\\d+) abandoned, 0 failed\\).*")
                    .matcher(line(lines, "sequences: 300 opened \\(.*"));
            assertTrue(opened.matches());
            assertTrue(Integer.parseInt(opened.group(1)) > 0 && Integer.parseInt(opened.group(2)) > 0, opened.group());
            line(lines, "sequences: live entries back to 1, .*; 0 sequences refused for the party's limit");
            line(lines, "sequences: 300 opened, 1 live entries, heap growth -?[0-9.]+ MB, checkpoint [0-9.]+ KB");
            line(lines, "measure: done, .*");
        }));
        tools.add(tool("measure checkpoint --quick --elements 0 --security none", lines -> {
            // | elements | state size | checkpoints | checkpoint ms mean | p50 | max | stable ms mean | max |
            List<String> row = rows(lines, "\\| 0 \\| [0-9.]+ [KM]?B \\| [1-9]\\d* \\| (" + MS + " \\| ){4}" + MS + " \\|");
            assertEquals(1, row.size(), "one row with checkpoints taken and timed");
            line(lines, "measure: done, .*");
        }));
        tools.add(tool("measure transfer --quick --elements 0 --security none", lines -> {
            // | elements | during the transfer | state size | transfers | first FetchState to installed | max | s |
            List<String> row = rows(lines, "\\| 0 \\| (client appending|no requests during the transfer) \\| [0-9.]+ [KM]?B \\| [1-9]\\d* \\| "
                    + MS + " \\| " + MS + " \\| " + MS + " \\|");
            assertEquals(2, row.size(), "a transfer in each mode");
            line(lines, "measure: done, .*");
        }));
        tools.add(tool("measure viewchange --quick --security none", lines -> {
            // | K | slots | new primary ms | survivors ms | client: kill to first reply in the new view, ms |
            List<String> row = rows(lines, "\\| 10 \\| \\d+ \\| " + MS + " \\| " + MS + " \\| \\d+ \\|");
            assertEquals(1, row.size(), "a view change at checkpoint interval 10, with its client's reply");
            line(lines, "measure: done, .*");
        }));
        tools.add(tool("measure failover --quick --security none", lines -> {
            line(lines, "failover: median \\d+ ms, worst \\d+ ms over 2 kills \\(0 without a reply\\); target .*");
            line(lines, "measure: done, .*");
        }));
        tools.add(tool("measure overload --clients 4 --seconds 5 --security none", lines -> {
            line(lines, "overload: 4 clients: [1-9]\\d* ok, 0 failed, [0-9.]+ req/s, exactly once, states equal, .*");
            line(lines, "measure: done, .*");
        }));
        // 30 s of appending from the clients' start: a replica killed 10 s in, started again after 3 s, and
        // another killed 10 s after that restart
        tools.add(tool("soak --seconds 30 --restart-every 10 --down 3 --security none", lines ->
                line(lines, "soak: [1-9]\\d* ok, 0 failed, [1-9]\\d* restarts, states equal, exactly once, "
                        + "heap max [1-9]\\d* MB")));
        return CaseFilter.only(tools, System.getProperty("tools"));
    }

    private static Arguments tool(String commandLine, Evidence evidence) {
        return Arguments.of(commandLine, evidence);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tools")
    void theToolRunsBrieflyAndPrintsWhatItMeasured(String commandLine, Evidence evidence) throws Exception {
        List<String> args = new ArrayList<>(List.of(commandLine.split(" ")));
        if (!args.get(0).equals("wire-costs")) {
            args.addAll(List.of("--home", home.toString()));
        }
        long t0 = System.nanoTime();
        // wire-costs makes its own RSA keys and times thousands of operations: CPU work that C2 repays
        boolean cpuBound = args.get(0).equals("wire-costs");
        try (Jvm tool = cpuBound ? Jvm.startWithBothCompilers(Bftws.class, args) : Jvm.start(Bftws.class, args)) {
            int status = tool.awaitExit(RUN_TIMEOUT);
            SECONDS.put(commandLine, (System.nanoTime() - t0) / 1_000_000_000L);
            assertEquals(0, status, commandLine + ":\n" + tool.output());
            try {
                evidence.check(tool.lines());
            } catch (AssertionError e) {
                throw new AssertionError(commandLine + ": " + e.getMessage() + "\n" + tool.output(), e);
            }
        }
    }

    @AfterAll
    static void printTimes() {
        System.out.println("tool runs, seconds each: " + SECONDS + ", "
                + SECONDS.values().stream().mapToLong(Long::longValue).sum() + " s in all");
    }
}
