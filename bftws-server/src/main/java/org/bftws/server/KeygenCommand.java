package org.bftws.server;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.bftws.config.ConfigException;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.security.KeyGenerator;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code keygen}: the command line of {@link KeyGenerator}, which writes a deployment's keys. */
@Command(name = "keygen", separator = " ", sortOptions = false, usageHelpWidth = 120,
        description = {
            "Writes the CA, every node's and client's keystore, the pairwise MAC keys and the truststore where "
                    + "replicas.xml's <keys> says (docs/configuration.md, \"Keys\"); keeps existing keys and adds "
                    + "missing ones unless --force; prints one line per file.",
            "Exit status: 0 written, 1 replicas.xml is unusable (the message says why), 2 bad command line."})
public final class KeygenCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    Cli.Help help;

    @Option(names = "--conf", paramLabel = "FILE", defaultValue = "conf/replicas.xml",
            description = "the deployment's replicas.xml (default ${DEFAULT-VALUE})")
    Path conf;

    @Option(names = "--force", description = "write new keys over existing ones")
    boolean force;

    @Option(names = "--revoke", paramLabel = "NAME",
            description = "instead of writing keys: add party NAME's certificate to the deployment CA's revocation "
                    + "list (<tls crl=...>, else revoked.crl next to the truststore), which nodes read when they start; "
                    + "then give NAME new keys with --force")
    String revoke;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (revoke != null) {
                out.println(Revocation.revoke(ReplicasConfigReader.read(conf, KeyFileCheck.none()), revoke));
                out.flush();
                return 0;
            }
            new KeyGenerator(ReplicasConfigReader.read(conf, KeyFileCheck.none()), force).run().forEach(out::println);
            out.flush();
            return 0;
        } catch (ConfigException | IllegalArgumentException | IllegalStateException e) {
            err.println("keygen: " + e.getMessage());
            err.flush();
            return 1;
        }
    }
}
