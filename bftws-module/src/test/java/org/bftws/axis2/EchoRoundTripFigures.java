package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import java.nio.file.Path;
import java.util.Arrays;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints echo round-trip figures on loopback, one client thread: plain Axis2 against the same echo over the
 * module's WS-RM layer. A measurement, not a test (no timed assertion): run it with
 * {@code mvn -B -pl bftws-module -am test -Dtest=EchoRoundTripFigures -Dbftws.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "bftws.bench", matches = "true")
class EchoRoundTripFigures {

    private static final int WARMUP = 1_000;
    private static final int SAMPLES = 3_000;

    @TempDir
    Path dir;

    @Test
    void printEchoRoundTripsPlainAndOverWsrm() throws Exception {
        String[] items = new String[10];
        Arrays.fill(items, "0123456789");
        try (NodeServer plain = NodeServer.start(TestNodes.repository(dir.resolve("plain"), true),
                TestNodes.PLAIN_AXIS2_XML, 0)) {
            ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                    TestNodes.repository(dir.resolve("plain-client"), false).toString(),
                    TestNodes.PLAIN_AXIS2_XML.toString());
            print("plain Axis2", run(TestNodes.serviceClient(ctx, plain.endpoint("EchoService")), items));
        }
        try (NodeServer rm = TestNodes.echoNode(dir)) {
            ConfigurationContext ctx = TestNodes.client(dir, true);
            print("WS-RM (bftws)", run(TestNodes.serviceClient(ctx, rm.endpoint("EchoService")), items));
        }
        signed(items);
    }

    /** WS-RM with WS-Security X.509 signatures on every message (a one-node group with the wssec profile). */
    private void signed(String[] items) throws Exception {
        int port = NodeServer.freePort();
        Path conf = dir.resolve("signed/replicas.xml");
        java.nio.file.Files.createDirectories(conf.getParent());
        java.nio.file.Files.writeString(conf, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <keys truststore="keys/truststore.p12" storePassword="bench-pw"/>
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="0">
                    <security profile="wssec"/>
                    <node id="0" name="replica0" serviceEndpoint="http://127.0.0.1:%d/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:%d/axis2/services/BftControl"/>
                  </group>
                  <client name="client1"/>
                </replicas>
                """.formatted(port, port));
        var config = org.bftws.config.ReplicasConfigReader.read(conf, org.bftws.config.KeyFileCheck.none());
        new org.bftws.security.KeyGenerator(config, false).run();
        System.setProperty("bftws.replicasConfig", conf.toString());
        try {
            try (NodeServer node = NodeServer.start(TestNodes.repository(dir.resolve("signed/server"), true),
                    TestNodes.AXIS2_XML, port)) {
                org.bftws.axis2.security.SecurityRuntime.install(node.context(),
                        new org.bftws.axis2.security.SecurityRuntime(config, "replica0"));
                ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                        TestNodes.repository(dir.resolve("signed/client"), false).toString(),
                        TestNodes.AXIS2_XML.toString());
                org.bftws.axis2.security.SecurityRuntime.install(ctx,
                        new org.bftws.axis2.security.SecurityRuntime(config, "client1"));
                print("WS-RM + WS-Security signatures (wssec, RSA-2048)",
                        run(TestNodes.serviceClient(ctx, "http://echo.bftws.group/axis2/services/EchoService"),
                                items));
            }
        } finally {
            System.clearProperty("bftws.replicasConfig");
        }
    }

    private static long[] run(ServiceClient client, String[] items) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            TestNodes.call(client, TestNodes.echo(items));
        }
        long[] nanos = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            long t0 = System.nanoTime();
            TestNodes.call(client, TestNodes.echo(items));
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }

    private static void print(String what, long[] nanos) {
        long total = Arrays.stream(nanos).sum();
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("echo round trips, %s, 1 client thread, 10 items: %.0f req/s, mean %.3f ms, "
                        + "p50 %.3f ms, p99 %.3f ms (%d samples)%n", what, nanos.length / (total / 1e9),
                total / 1e6 / nanos.length, sorted[nanos.length / 2] / 1e6, sorted[nanos.length * 99 / 100] / 1e6,
                nanos.length);
    }
}
