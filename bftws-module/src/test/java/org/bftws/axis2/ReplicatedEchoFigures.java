package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.apache.axis2.client.ServiceClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints echo round trips through the client Voter against four replicas in this JVM (one client thread, f+1 = 2
 * identical replies decide), without security and with every message signed. All four replicas and the client share
 * this machine's cores, so these are the cost of the whole group on one box, not a deployment's latency. A
 * measurement, not a test: {@code mvn -B -pl bftws-module -am test -Dtest=ReplicatedEchoFigures -Dbftws.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "bftws.bench", matches = "true")
class ReplicatedEchoFigures {
    private static final int WARMUP = 300;
    private static final int SAMPLES = 1_000;

    @TempDir
    Path dir;

    @Test
    void printRoundTripsThroughTheVoter() throws Exception {
        for (String profile : List.of("none", "wssec")) {
            int[] p = NodeServer.freePorts(4);
            try (EchoReplicas group = new EchoReplicas(dir.resolve(profile), profile, "clientTimeout=\"5s\"",
                    Arrays.stream(p).mapToObj(EchoReplicas::endpoint).toList())) {
                for (int i = 0; i < 4; i++) {
                    group.startNode(i, p[i], null);
                }
                ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
                String[] items = new String[10];
                Arrays.fill(items, "0123456789");
                for (int i = 0; i < WARMUP; i++) {
                    TestNodes.call(client, TestNodes.echo(items));
                }
                long[] nanos = new long[SAMPLES];
                for (int i = 0; i < SAMPLES; i++) {
                    long t0 = System.nanoTime();
                    TestNodes.call(client, TestNodes.echo(items));
                    nanos[i] = System.nanoTime() - t0;
                }
                long[] sorted = nanos.clone();
                Arrays.sort(sorted);
                long total = Arrays.stream(nanos).sum();
                System.out.printf("echo through the Voter, 4 replicas in one JVM, profile %s, 1 client thread,"
                                + " 10 items: %.0f req/s, mean %.3f ms, p50 %.3f ms, p99 %.3f ms (%d samples)%n", profile,
                        SAMPLES / (total / 1e9), total / 1e6 / SAMPLES, sorted[SAMPLES / 2] / 1e6,
                        sorted[SAMPLES * 99 / 100] / 1e6, SAMPLES);
            }
        }
    }
}
