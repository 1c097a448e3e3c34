package org.bftws.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.server.ReplicaMain;
import org.bftws.server.SampleService;

/**
 * The replica the testbed, the benchmark, the fault tests and {@code ./bftws replica} run: bftws-server's replica
 * with the echo sample deployed when no {@code --services} is given, and the standard-input queries {@code state}
 * and {@code entries} that read the echo sample's state ({@link EchoStateProbe}).
 */
public final class EchoReplica implements SampleService {

    EchoReplica() {
    }

    public static void main(String[] args) {
        ReplicaMain.launch(args, new EchoReplica());
    }

    @Override
    public void writeArchives(Path servicesDirectory) throws IOException {
        EchoServiceArchive.writeTo(servicesDirectory);
    }

    @Override
    public Map<String, StateQuery> queries() {
        return Map.of("state", (node, context) -> EchoStateProbe.stateLine(node, EchoStateProbe.read(context)),
                "entries", (node, context) -> EchoStateProbe.entriesLine(node, EchoStateProbe.read(context)));
    }
}
