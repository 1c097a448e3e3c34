package org.bftws.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.bench.byzantine.ByzantineOption;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.server.Cli;
import org.bftws.server.ReplicaCommand;
import org.bftws.server.ReplicaCommandProvider;
import org.bftws.server.SampleService;

import picocli.CommandLine;

/**
 * The replica the testbed, the benchmark, the fault tests and {@code ./bftws replica} run: bftws-server's replica
 * with the echo sample deployed when no {@code --services} is given, the standard-input queries {@code state}
 * and {@code entries} that read the echo sample's state ({@link EchoStateProbe}; the key-value sample's on a node that
 * runs it, {@link KvStateProbe}), and the testing option
 * {@code --byzantine MODE} ({@link ByzantineOption}), which makes it lie where replicas.xml allows it. {@code ./bftws
 * replica} runs it from bftws-server's launcher, which finds it through {@link Provider}.
 */
public final class EchoReplica implements SampleService {

    private final ByzantineOption byzantine;

    private EchoReplica(ByzantineOption byzantine) {
        this.byzantine = byzantine;
    }

    public static void main(String[] args) {
        Cli.exit(commandLine(), args);
    }

    /** The replica command with the echo sample and the {@code --byzantine} option. */
    static CommandLine commandLine() {
        ByzantineOption byzantine = new ByzantineOption();
        CommandLine line = new CommandLine(new ReplicaCommand(new EchoReplica(byzantine)));
        byzantine.addTo(line);
        return line;
    }

    /** This replica for bftws-server's launcher (META-INF/services/org.bftws.server.ReplicaCommandProvider). */
    public static final class Provider implements ReplicaCommandProvider {
        @Override
        public CommandLine replica() {
            return commandLine();
        }
    }

    @Override
    public void writeArchives(Path servicesDirectory) throws IOException {
        EchoServiceArchive.writeTo(servicesDirectory);
    }

    @Override
    public Map<String, StateQuery> queries() {
        return Map.of("state", (node, context) -> EchoStateProbe.stateLine(node, sampleState(context)),
                "entries", (node, context) -> EchoStateProbe.entriesLine(node, sampleState(context)));
    }

    /** The echo sample's state, or the key-value sample's on a node that runs that one instead. */
    private static EchoStateProbe.Reading sampleState(ConfigurationContext context)
            throws AxisFault {
        EchoStateProbe.Reading echo = EchoStateProbe.read(context);
        return echo != null ? echo : KvStateProbe.read(context);
    }

    @Override
    public String refusal(GroupConfig group, NodeConfig node) {
        return byzantine.refusal(group, node);
    }

    @Override
    public void configure(AxisConfiguration axis, GroupConfig group, NodeConfig node) throws AxisFault {
        var mode = byzantine.mode();
        if (mode.isPresent()) {
            mode.get().install(axis);
        }
    }
}
