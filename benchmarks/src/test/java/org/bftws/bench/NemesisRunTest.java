package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.bftws.bench.nemesis.Fault;
import org.bftws.bench.nemesis.KvChecker;
import org.bftws.bench.nemesis.Network;
import org.bftws.bench.nemesis.Prerequisites;
import org.bftws.server.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./bftws nemesis}: its last line, its command line, its refusal where it cannot run, and a short run on real
 * network stacks. What needs namespaces and Go fails where they are missing under CI, and is skipped with the reason
 * printed elsewhere ({@link Prerequisites}).
 */
class NemesisRunTest {

    private static final Pattern LAST_LINE = Pattern.compile("nemesis: \\d+ ops, \\d+ ok, \\d+ failed, \\d+ unknown, "
            + "linearizable: (yes|no|unknown), states (equal|differ), faults: \\d+ partitions, \\d+ pauses, \\d+ "
            + "restarts, \\d+ clock skews, longest unavailability \\d+\\.\\d s");

    @Test
    void theLastLineSaysWhatTheIssueAsksFor() {
        Map<Fault.Count, Integer> faults = new EnumMap<>(Fault.Count.class);
        faults.put(Fault.Count.PARTITION, 3);
        faults.put(Fault.Count.PAUSE, 2);
        faults.put(Fault.Count.RESTART, 1);
        String line = Nemesis.resultLine(100, 90, 4, 6, KvChecker.Verdict.YES, true, faults, 2_345_000_000L);
        assertEquals("nemesis: 100 ops, 90 ok, 4 failed, 6 unknown, linearizable: yes, states equal, faults: 3 "
                + "partitions, 2 pauses, 1 restarts, 0 clock skews, longest unavailability 2.3 s", line);
        assertTrue(LAST_LINE.matcher(line).matches());
        assertTrue(Nemesis.resultLine(1, 0, 0, 1, KvChecker.Verdict.NO, false, faults, 0)
                .contains("linearizable: no, states differ"));
    }

    @Test
    void itsCommandLineTakesMinutesOrSecondsAndRefusesWhatCannotRun() {
        Nemesis.Options o = Cli.parse(new NemesisCommand(), "--minutes", "30", "--seed", "7").options();
        assertEquals(30 * 60_000L, o.runMillis());
        assertEquals(7, o.seed());
        assertEquals(45_000L, Cli.parse(new NemesisCommand(), "--seconds", "45").options().runMillis());
        BftwsCommandsTest.Outcome bad = BftwsCommandsTest.run("nemesis", "--seconds", "5");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--seconds must be between 20"), bad.err());
        assertEquals(2, BftwsCommandsTest.run("nemesis", "--clients", "0").status());
    }

    @Test
    void withoutTheIpCommandItRefusesInOneLineWithStatusTwo(@TempDir Path home) throws Exception {
        Path emptyPath = Files.createDirectory(home.resolve("empty-path"));
        String reason = Network.refusal().filter(r -> r.contains("need Linux"))
                .orElse("no 'ip' command (iproute2) on the PATH to make network namespaces with");
        assertRefused(List.of(), Map.of("PATH", emptyPath.toString()), home, reason);
    }

    @Test
    void asRootWithoutCapSysAdminAndCapNetAdminItRefusesInOneLineWithStatusTwo(@TempDir Path home)
            throws Exception {
        Prerequisites.require("network namespaces", Network.refusal());
        Prerequisites.require("setpriv (util-linux), to drop capabilities", Prerequisites.command("setpriv"));
        // root's capabilities after exec are its bounding set: setpriv takes the two out of it for the child JVM
        assertRefused(List.of("setpriv", "--bounding-set", "-sys_admin,-net_admin"), Map.of(), home,
                "root here lacks CAP_SYS_ADMIN and CAP_NET_ADMIN, which making network namespaces needs (a "
                        + "container without privileges, or capabilities dropped)");
    }

    /** {@code ./bftws nemesis} in a JVM of its own, started through {@code prefix} with {@code environment}. */
    private static void assertRefused(List<String> prefix, Map<String, String> environment, Path home,
            String reason) throws Exception {
        try (Jvm nemesis = Jvm.start(prefix, environment, Bftws.class, List.of("nemesis", "--seconds", "30",
                "--home", home.toString()))) {
            assertEquals(2, nemesis.awaitExit(Duration.ofSeconds(60)), nemesis.output());
            assertEquals(List.of("nemesis: cannot run here: " + reason), nemesis.lines());
        }
    }

    @Test
    void aShortRunOnSeparateNetworkStacksIsLinearizableWithEqualStatesAndLeavesNoNamespaceBehind(@TempDir Path home)
            throws Exception {
        Prerequisites.require("network namespaces and Go", Optional.ofNullable(Nemesis.refusal()));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        // seed 7's first 40 s: the client cut from a replica, a replica killed and restarted from its data
        // directory, two against two
        int status = new Nemesis(new Nemesis.Options(50_000, 7, 3, 3, 10_000, false, home), out).run();
        String text = bytes.toString(StandardCharsets.UTF_8);
        List<String> lines = text.lines().toList();
        String last = lines.stream().filter(l -> LAST_LINE.matcher(l).matches()).findFirst().orElse("");
        assertEquals(0, status, text);
        assertTrue(last.contains("linearizable: yes, states equal"), text);
        assertTrue(!last.contains("faults: 0 partitions"), text);
        assertEquals(List.of(), Network.of(ProcessHandle.current().pid()), "namespaces and links left behind");
        assertTrue(!Files.exists(home.resolve("nemesis")) || Files.list(home.resolve("nemesis"))
                .noneMatch(p -> p.getFileName().toString().startsWith("20")), "a passed run keeps no run directory");
    }
}
