package org.bftws.server;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code replica}: the command line of {@link ReplicaMain}, one node of a deployment's replicas.xml. */
@Command(name = "replica", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Runs one node of replicas.xml on the port of its endpoints (loopback hosts: bound to loopback only), in "
                    + "its own Axis2 server (or in AxisServlet in an embedded Jetty: --container jetty); prints 'ready NAME PORT' once it serves; stops on SIGTERM, Ctrl-C, "
                    + "'stop' or the end of standard input (unless --ignore-stdin).",
            "On standard input 'stats' prints its counters, view and stable checkpoint, 'measurements' its "
                    + "checkpoint, state transfer and view change timings (./bftws replica also answers 'state' "
                    + "and 'entries': the echo sample's state).",
            "Exit status: 0 stopped, 1 could not start (the message says why), 2 bad command line."})
public final class ReplicaCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @ArgGroup(multiplicity = "1")
    Which which;

    /** Which node: exactly one of the two. */
    static final class Which {
        @Option(names = "--id", paramLabel = "I", required = true,
                description = "the agreement node with id I (Configurations I and II: every node)")
        Integer id;

        @Option(names = "--name", paramLabel = "NAME", required = true,
                description = "the node named NAME (also the execution nodes of Configuration III)")
        String name;
    }

    @Option(names = "--conf", paramLabel = "FILE", defaultValue = "conf/replicas.xml",
            description = "the deployment's replicas.xml (default ${DEFAULT-VALUE})")
    Path conf;

    @Option(names = "--group", paramLabel = "SERVICE",
            description = "the group of that service, when replicas.xml has several")
    String group;

    @Option(names = "--services", paramLabel = "DIR",
            description = "deploy the .aar service archives of DIR (./bftws replica: the echo sample without it); an "
                    + "agreement-only node deploys none: the module's stand-in of its group's service orders there")
    Path services;

    @Option(names = "--run-dir", paramLabel = "DIR",
            description = "where to write the node's Axis2 repository (default .bftws/replica/NAME)")
    Path runDir;

    @Option(names = "--container", paramLabel = "simple|jetty", defaultValue = "simple",
            description = "the HTTP server the node answers on: simple (default), Axis2's own SimpleHTTPServer; jetty, "
                    + "Axis2's AxisServlet in an embedded Jetty 9.4 servlet container (docs/deployment.md)")
    String container;

    @Option(names = "--ignore-stdin",
            description = "keep running when standard input ends (a detached replica)")
    boolean ignoreStdin;

    private final SampleService sample;

    /** The product's replica: a deployment names its service archives with --services. */
    public ReplicaCommand() {
        this(null);
    }

    /** A launcher's replica that deploys {@code sample} (and answers its queries) when --services is not given. */
    public ReplicaCommand(SampleService sample) {
        this.sample = sample;
    }

    /** The options, checked beyond what picocli checks. */
    ReplicaOptions options() {
        if (which.id != null) {
            Cli.range(spec, "--id", which.id, 0, 10_000);
        }
        if (services == null && sample == null) {
            throw Cli.refuse(spec, "say which service archives to deploy with --services DIR");
        }
        NodeContainer server = NodeContainer.valueOf(
                Cli.choice(spec, "--container", container, "simple", "jetty").toUpperCase(java.util.Locale.ROOT));
        return new ReplicaOptions(which.id, which.name, conf, group, services, runDir, ignoreStdin, server);
    }

    @Override
    public Integer call() {
        return ReplicaMain.run(options(), sample, System.out, System.err);
    }
}
