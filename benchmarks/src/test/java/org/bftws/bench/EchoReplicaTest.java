package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./bftws replica} in its own JVM, as the testbed runs it: where it listens, how it stops, its start failures. */
class EchoReplicaTest {

    @TempDir
    Path dir;

    private Path replicasXml(String profile, int port) throws IOException {
        Path file = dir.resolve("replicas.xml");
        Files.writeString(file, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <keys truststore="keys/truststore.p12" storePassword="pw"/>
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="0">
                    <security profile="%s"/>
                    <node id="0" name="solo" serviceEndpoint="http://127.0.0.1:%d/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:%d/axis2/services/BftControl"/>
                  </group>
                  <client name="client1"/>
                </replicas>
                """.formatted(profile, port, port));
        return file;
    }

    @Test
    void aLoopbackReplicaListensOnLoopbackOnlyAndStopsCleanlyAtTheEndOfItsInput() throws Exception {
        int port = org.bftws.axis2.standalone.NodeServer.freePort();
        Path conf = replicasXml("none", port);
        try (Jvm replica = Jvm.start(EchoReplica.class, List.of("--id", "0", "--conf", conf.toString(),
                "--run-dir", dir.resolve("run").toString()))) {
            replica.awaitLine(l -> l.equals("ready solo " + port), Duration.ofSeconds(90));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2_000);
            }
            Optional<InetAddress> other = nonLoopbackAddress();
            if (other.isPresent()) {
                assertThrows(IOException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(other.get(), port), 2_000);
                    }
                }, "the replica also accepts connections on " + other.get());
            }
            assertTrue(Files.isRegularFile(dir.resolve("run/repository/modules/addressing.mar")));
            assertTrue(Files.isRegularFile(dir.resolve("run/repository/services/EchoService.aar")));
            replica.closeInput();
            assertEquals(0, replica.awaitExit(Duration.ofSeconds(30)), replica.output());
            assertTrue(replica.lines().contains("stopped solo"), replica.output());
        }
    }

    @Test
    void aPortAlreadyInUseIsAClearStartupFailure() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Path conf = replicasXml("none", taken.getLocalPort());
            try (Jvm replica = Jvm.start(EchoReplica.class, List.of("--id", "0", "--conf", conf.toString(),
                    "--run-dir", dir.resolve("run").toString()))) {
                assertEquals(1, replica.awaitExit(Duration.ofSeconds(90)), replica.output());
                assertTrue(replica.output().contains("replica: solo failed to start: cannot listen on 127.0.0.1:"
                        + taken.getLocalPort()), replica.output());
            }
        }
    }

    @Test
    void aNodeWhoseKeystoreHasNoProofKeyStopsAtStartSayingInOneLineToRunKeygen() throws Exception {
        int port = org.bftws.axis2.standalone.NodeServer.freePort();
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < 4; i++) { // a BFT group: solo and three peers that never start
            int p = i == 0 ? port : port + i;
            nodes.append("""
                    <node id="%d" name="%s" serviceEndpoint="http://127.0.0.1:%d/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:%d/axis2/services/BftControl"
                          channelEndpoint="tcp://127.0.0.1:%d"/>
                    """.formatted(i, i == 0 ? "solo" : "peer" + i, p, p, p + 4));
        }
        Path conf = dir.resolve("replicas.xml");
        Files.writeString(conf, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <keys truststore="keys/truststore.p12" storePassword="pw"/>
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="1">
                    <security profile="mac"/>
                    %s
                  </group>
                  <client name="client1"/>
                </replicas>
                """.formatted(nodes));
        new org.bftws.security.KeyGenerator(org.bftws.config.ReplicasConfigReader.read(conf,
                org.bftws.config.KeyFileCheck.none()), false).run();
        // solo's keystore as keygen wrote it before nodes had proof keys
        Path keystore = dir.resolve("keys/solo.p12");
        char[] pw = "pw".toCharArray();
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keystore)) {
            store.load(in, pw);
        }
        store.deleteEntry("proof:solo");
        try (var out = Files.newOutputStream(keystore)) {
            store.store(out, pw);
        }
        try (Jvm replica = Jvm.start(EchoReplica.class, List.of("--id", "0", "--conf", conf.toString(),
                "--run-dir", dir.resolve("run").toString()))) {
            assertEquals(1, replica.awaitExit(Duration.ofSeconds(90)), replica.output());
            List<String> failures = replica.lines().stream().filter(l -> l.startsWith("replica: solo failed to start"))
                    .toList();
            assertEquals(1, failures.size(), replica.output());
            assertTrue(failures.get(0).contains("holds no Ed25519 proof key")
                    && failures.get(0).contains("run ./bftws keygen"), replica.output());
        }
    }

    private static Optional<InetAddress> nonLoopbackAddress() throws IOException {
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (ni.isUp() && !ni.isLoopback()) {
                for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof java.net.Inet4Address) {
                        return Optional.of(a);
                    }
                }
            }
        }
        return Optional.empty();
    }
}
