package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.bftws.server.NodeRepository;

/**
 * With time caps, a stuck node does not hold the echo client for its request timeout: the node here is a real
 * loopback socket at the node's address in replicas.xml that accepts connections and never answers.
 */
class EchoClientHardEndTest {

    @TempDir
    Path dir;

    @Test
    void aWarmUpThatNeverGetsAnAnswerEndsTheRunAtTwiceItsCapPlusGraceWithNothingMeasured() throws Exception {
        TestbedOptions layout = TestbedOptions.parse(new String[] {"--unreplicated", "--security", "none",
                "--home", dir.toString()});
        TestbedDeployment deployment = TestbedDeployment.write(layout, dir, new TestbedKeys(dir.resolve("keys")));
        int port = deployment.nodes().get(0).port();
        List<Socket> accepted = new ArrayList<>();
        String replicasConfig = System.getProperty("bftws.replicasConfig");
        String party = System.getProperty("bftws.party");
        try (ServerSocket silent = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // kept open, never read or answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-node");
            acceptor.setDaemon(true);
            acceptor.start();
            System.setProperty("bftws.replicasConfig", deployment.file().toString());
            System.setProperty("bftws.party", TestbedDeployment.CLIENT);
            Path repository = NodeRepository.forClient(dir.resolve("client"));
            ConfigurationContext context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                    repository.toString(), NodeRepository.axis2Xml(repository).toString());
            try {
                EchoClient.Settings settings = new EchoClient.Settings(TestbedDeployment.GROUP_ENDPOINT, 2, 10, 2,
                        1, 120_000, Duration.ofSeconds(1), Duration.ofSeconds(1));
                long t0 = System.nanoTime();
                EchoResult r = new EchoClient(context, settings).run(new EchoClient.Listener() { });
                double seconds = (System.nanoTime() - t0) / 1e9;
                // 2 x 1 s + 10 s grace + 2 s settle at most, against a 120 s request timeout
                assertTrue(seconds < 30, "the run took " + seconds + " s");
                assertEquals(0, r.ok());
                assertTrue(r.notes().stream().anyMatch(n -> n.contains("warm-up did not end")), r.notes().toString());
            } finally {
                context.terminate();
            }
        } finally {
            restore("bftws.replicasConfig", replicasConfig);
            restore("bftws.party", party);
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
