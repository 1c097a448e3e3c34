package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.bftws.server.BftwsServer;
import org.bftws.server.Cli;
import org.junit.jupiter.api.Test;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code ./bftws}: its usage lists every option of every command, each command explains itself with --help, and a
 * command line a command cannot run is refused in one line with status 2, before anything starts.
 */
class BftwsCommandsTest {

    /** What a command line printed and returned. */
    record Outcome(int status, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.execute(Bftws.commandLine(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Map<String, CommandLine> commands() {
        return Bftws.commandLine().getSubcommands();
    }

    @Test
    void theUsageListsEveryCommandWithEveryOptionItHas() {
        Outcome usage = run("--help");
        assertEquals(0, usage.status(), usage.err());
        assertEquals(List.of("sim", "keygen", "wire-costs", "testbed", "bench", "measure", "soak", "nemesis", "replica",
                "gateway"),
                List.copyOf(commands().keySet()));
        for (Map.Entry<String, CommandLine> command : commands().entrySet()) {
            assertTrue(usage.out().contains("bftws " + command.getKey() + " "), usage.out());
            for (OptionSpec option : command.getValue().getCommandSpec().options()) {
                assertTrue(usage.out().contains(option.longestName()), "the usage omits " + command.getKey() + " "
                        + option.longestName() + ":\n" + usage.out());
            }
        }
    }

    @Test
    void withoutACommandTheUsageGoesToStandardErrorWithStatusTwo() {
        Outcome none = run();
        assertEquals(2, none.status());
        assertTrue(none.err().contains("bftws testbed") && none.err().contains("--crash"), none.err());
        Outcome unknown = run("benchmark");
        assertEquals(2, unknown.status());
        assertTrue(unknown.errLines().get(0).contains("'benchmark'"), unknown.err());
    }

    @Test
    void eachCommandsHelpListsItsOptionsAndExitsZero() {
        for (Map.Entry<String, CommandLine> command : commands().entrySet()) {
            Outcome help = run(command.getKey(), "--help");
            assertEquals(0, help.status(), command.getKey() + ": " + help.err());
            assertTrue(help.out().startsWith("Usage: bftws " + command.getKey()), help.out());
            for (OptionSpec option : command.getValue().getCommandSpec().options()) {
                assertTrue(help.out().contains(option.longestName()), command.getKey() + " --help omits "
                        + option.longestName() + ":\n" + help.out());
            }
        }
    }

    @Test
    void aBadOptionIsRefusedInOneLineNamingItWithStatusTwo() {
        for (String command : commands().keySet()) {
            List<String> args = command.equals("measure") ? List.of(command, "all", "--fast")
                    : command.equals("replica") ? List.of(command, "--id", "0", "--fast")
                    : command.equals("gateway") ? List.of(command, "--listen", "127.0.0.1:0", "--party", "c", "--fast")
                    : List.of(command, "--fast");
            Outcome bad = run(args.toArray(String[]::new));
            assertEquals(2, bad.status(), command + ": " + bad.err());
            assertEquals(2, bad.errLines().size(), command + ": " + bad.err());
            assertTrue(bad.errLines().get(0).startsWith("bftws " + command + ": ")
                    && bad.errLines().get(0).contains("'--fast'"), bad.err());
            assertEquals("try 'bftws " + command + " --help'", bad.errLines().get(1));
            assertEquals("", bad.out(), command);
        }
    }

    @Test
    void aValueOutsideItsRangeOrChoicesIsRefusedBeforeAnythingStarts() {
        Outcome clients = run("testbed", "--clients", "0");
        assertEquals(2, clients.status());
        assertEquals("bftws testbed: --clients must be between 1 and 256, not 0", clients.errLines().get(0));
        Outcome experiment = run("measure", "throughput");
        assertEquals(2, experiment.status());
        assertTrue(experiment.errLines().get(0).contains("checkpoint, transfer, viewchange, failover or all"),
                experiment.err());
        Outcome nothing = run("measure");
        assertEquals(2, nothing.status());
        assertEquals(2, nothing.errLines().size(), nothing.err());
        Outcome only = run("bench", "--only", "c4-mac", "--home", "/x/.bftws");
        assertEquals(2, only.status());
        assertTrue(only.errLines().get(0).contains("no setup 'c4-mac'"), only.err());
    }

    /** Four replicas on the binary channel, profile none (no keys), replica3 allowed to lie. */
    private static final String BYZANTINE_XML = """
            <replicas xmlns="urn:bftws:replicas:1">
              <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="1">
                <node id="0" name="replica0" serviceEndpoint="http://127.0.0.1:1/axis2/services/EchoService"
                      controlEndpoint="http://127.0.0.1:1/axis2/services/BftControl" channelEndpoint="tcp://127.0.0.1:5"/>
                <node id="1" name="replica1" serviceEndpoint="http://127.0.0.1:2/axis2/services/EchoService"
                      controlEndpoint="http://127.0.0.1:2/axis2/services/BftControl" channelEndpoint="tcp://127.0.0.1:6"/>
                <node id="2" name="replica2" serviceEndpoint="http://127.0.0.1:3/axis2/services/EchoService"
                      controlEndpoint="http://127.0.0.1:3/axis2/services/BftControl" channelEndpoint="tcp://127.0.0.1:7"/>
                <node id="3" name="replica3" serviceEndpoint="http://127.0.0.1:4/axis2/services/EchoService"
                      controlEndpoint="http://127.0.0.1:4/axis2/services/BftControl" channelEndpoint="tcp://127.0.0.1:8"
                      byzantineAllowed="true"/>
              </group>
            </replicas>
            """;

    @Test
    void aByzantineReplicaIsRefusedInOneLineWithStatusTwoUnlessReplicasXmlAllowsItForThatNode(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path conf = java.nio.file.Files.writeString(dir.resolve("replicas.xml"), BYZANTINE_XML);
        Outcome notAllowed = runCapturingStandardError("replica", "--name", "replica1", "--conf", conf.toString(),
                "--byzantine", "flood", "--run-dir", dir.resolve("r1").toString());
        assertEquals(2, notAllowed.status(), notAllowed.err());
        assertEquals(List.of("replica: --byzantine flood refused: <node name=\"replica1\"> of group EchoService in "
                + "replicas.xml does not say byzantineAllowed=\"true\""), notAllowed.errLines());
        Outcome notPrimary = runCapturingStandardError("replica", "--name", "replica3", "--conf", conf.toString(),
                "--byzantine", "equivocate", "--run-dir", dir.resolve("r3").toString());
        assertEquals(2, notPrimary.status(), notPrimary.err());
        assertTrue(notPrimary.errLines().get(0).startsWith("replica: --byzantine equivocate lies as the primary: run it"
                + " on the view-0 primary"), notPrimary.err());
        Outcome unknown = runCapturingStandardError("replica", "--name", "replica3", "--conf", conf.toString(),
                "--byzantine", "lie", "--run-dir", dir.resolve("r3").toString());
        assertEquals(2, unknown.status(), unknown.err());
        assertTrue(unknown.errLines().get(0).contains("--byzantine must be one of wrong-replies, equivocate, "
                + "silent-primary, replay, bad-checkpoint, flood, not 'lie'"), unknown.err());
        Outcome crash = run("testbed", "--byzantine", "flood", "--crash", "backup");
        assertEquals(2, crash.status(), crash.err());
        assertTrue(crash.errLines().get(0).contains("--byzantine runs one lying replica"), crash.err());
    }

    /** As {@link #run}, with the replica's own messages (it writes to System.err) in the outcome's err too. */
    private static Outcome runCapturingStandardError(String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream replicaErr = new ByteArrayOutputStream();
        System.setErr(new PrintStream(replicaErr, true, StandardCharsets.UTF_8));
        try {
            Outcome o = run(args);
            return new Outcome(o.status(), o.out(), replicaErr.toString(StandardCharsets.UTF_8) + o.err());
        } finally {
            System.setErr(saved);
        }
    }

    @Test
    void keygenWithoutTheFileAfterConfSaysSoInOneLine() {
        Outcome bad = run("keygen", "--conf");
        assertEquals(2, bad.status(), bad.err());
        assertEquals(List.of("bftws keygen: Missing required parameter for option '--conf' (FILE)",
                "try 'bftws keygen --help'"), bad.errLines());
    }

    @Test
    void simTakesVerboseAndThenPrintsEveryScheduleItRan() {
        Outcome sim = run("sim", "--seeds", "2", "--first", "5", "--verbose");
        assertEquals(0, sim.status(), sim.out() + sim.err());
        assertTrue(sim.out().contains("seed 5 ok: ") && sim.out().contains("seed 6 ok: "), sim.out());
        assertTrue(sim.out().contains("schedules: 2, violations: 0, stuck: 0"), sim.out());
        Outcome quiet = run("sim", "--seeds", "1", "--first", "5");
        assertTrue(!quiet.out().contains("seed 5 ok"), quiet.out());
    }

    /**
     * ./bftws replica, keygen and gateway start from bftws-server's launcher, named bftws; on this module's classpath
     * its replica is the checkout's (EchoReplica.Provider), with every option ./bftws lists for it.
     */
    @Test
    void theServersLauncherRunsTheProductsCommandsWithTheCheckoutsReplica() {
        String before = System.getProperty(BftwsServer.COMMAND_NAME);
        System.setProperty(BftwsServer.COMMAND_NAME, "bftws");
        try {
            CommandLine server = BftwsServer.commandLine();
            assertEquals("bftws", server.getCommandName());
            assertEquals(List.of("replica", "keygen", "gateway"), List.copyOf(server.getSubcommands().keySet()));
            for (String command : server.getSubcommands().keySet()) {
                assertEquals(names(commands().get(command)), names(server.getSubcommands().get(command)), command);
            }
            assertTrue(names(server.getSubcommands().get("replica")).contains("--byzantine"));
        } finally {
            if (before == null) {
                System.clearProperty(BftwsServer.COMMAND_NAME);
            } else {
                System.setProperty(BftwsServer.COMMAND_NAME, before);
            }
        }
    }

    private static List<String> names(CommandLine command) {
        return command.getCommandSpec().options().stream().map(OptionSpec::longestName).toList();
    }
}
