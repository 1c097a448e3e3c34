package org.bftws.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.core.ReplyPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BftClient over real HTTP against echo nodes in this JVM. The client is built from the classpath alone (Axis2's
 * default configuration, the bftws and addressing modules found on the classpath) plus replicas.xml and its party.
 * Until total order lands, the four replicas are independent WS-RM nodes, which suffices for the stateless echo.
 */
class BftClientTest {
    private static final String ECHO = EchoNodes.ACTION + "echo";
    private static final String APPEND = EchoNodes.ACTION + "append";

    @TempDir
    Path dir;

    private static int[] ports() throws Exception {
        return org.bftws.axis2.standalone.NodeServer.freePorts(4);
    }

    @Test
    void theClientGetsTheRightAnswerFromFourReplicasOneOfWhichSignsWrongReplies() throws Exception {
        int[] p = ports();
        Path conf = EchoNodes.groupConfig(dir, "wssec", p);
        WrongEchoReplies byzantine = new WrongEchoReplies();
        try (EchoNodes nodes = new EchoNodes(dir)) {
            for (int i = 0; i < 4; i++) {
                nodes.start("replica" + i, p[i], conf, "replica" + i, i == 3 ? byzantine : null);
            }
            try (BftClient client = BftClient.builder().replicas(conf).party("client1").build()) {
                assertEquals(OptionalInt.empty(), client.lastView(EchoNodes.GROUP), "no reply accepted yet");
                for (int i = 0; i < 5; i++) {
                    OMElement reply = client.call(EchoNodes.GROUP, ECHO, EchoNodes.echo("pay " + i, "to bob"));
                    assertEquals(List.of("pay " + i, "to bob"), EchoNodes.texts(reply));
                }
                assertTrue(byzantine.rewroteAtLeast(1), "replica3 did answer wrongly");
                assertEquals(OptionalInt.of(0), client.lastView(EchoNodes.GROUP), "replicas state no view yet: 0");
                assertEquals(0, client.counters().dropped.get(), client.counters().toString());

                // the service's own fault, returned identically by the replicas, is the answer
                AxisFault fault = assertThrows(AxisFault.class,
                        () -> client.call(EchoNodes.GROUP, ECHO, EchoNodes.element("bogus")));
                assertTrue(fault.getMessage().contains("but got {" + EchoNodes.ACTION.replaceAll("/$", "") + "}bogus"),
                        fault.getMessage());
            }
        }
    }

    @Test
    void threadsCallingAtOnceGetTheirOwnSequencesWhichCloseTerminates() throws Exception {
        int[] p = ports();
        Path conf = EchoNodes.groupConfig(dir, "mac", p);
        try (EchoNodes nodes = new EchoNodes(dir)) {
            List<ConfigurationContext> replicas = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(nodes.start("replica" + i, p[i], conf, "replica" + i, null));
            }
            BftClient client = BftClient.builder().replicas(conf).party("client1")
                    .replyPolicy(ECHO, ReplyPolicy.STRONG_QUORUM).build();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 8; i++) {
                        String item = "t" + thread + "-" + i;
                        assertEquals(List.of(item), EchoNodes.texts(client.call(EchoNodes.GROUP, ECHO,
                                EchoNodes.echo(item))));
                    }
                    return thread;
                }));
            }
            for (Future<Integer> f : done) {
                f.get();
            }
            pool.shutdown();
            client.close();
            for (ConfigurationContext replica : replicas) {
                assertEquals(4, BftwsNode.of(replica).counters().sequencesCreated.get(), "one sequence per thread");
                assertEquals(4, BftwsNode.of(replica).counters().sequencesTerminated.get(), "closed by close()");
            }
            assertEquals(32 + 4 + 4, client.counters().decided.get(), "32 echoes, 4 CreateSequence, 4 Terminate");
        }
    }

    @Test
    void theSameClientCodeTalksToANonReplicatedWsrmService() throws Exception {
        int port = EchoNodes.freePort();
        try (EchoNodes nodes = new EchoNodes(dir)) {
            ConfigurationContext node = nodes.start("plain", port, null, null, null);
            try (BftClient client = BftClient.builder().build()) {
                String url = EchoNodes.endpoint(port);
                for (int i = 1; i <= 3; i++) {
                    OMElement reply = client.call(url, APPEND, EchoNodes.append("v" + i));
                    assertEquals(String.valueOf(i), EchoNodes.texts(reply).get(0), "exactly once, in order");
                }
                assertEquals(List.of("x"), EchoNodes.texts(client.call(url, ECHO, EchoNodes.echo("x"))));
                assertEquals(OptionalInt.empty(), client.lastView(url), "not a group");
            }
            assertEquals(1, BftwsNode.of(node).counters().sequencesCreated.get());
            assertEquals(1, BftwsNode.of(node).counters().sequencesTerminated.get());
        }
    }

    @Test
    void aMissingReplicasFileIsNamedWhenTheClientIsBuilt() {
        AxisFault e = assertThrows(AxisFault.class,
                () -> BftClient.builder().replicas(dir.resolve("nowhere/replicas.xml")).build());
        assertTrue(e.getMessage().contains("nowhere/replicas.xml") && e.getMessage().contains("does not exist"),
                e.getMessage());
    }

    @Test
    void anInvalidReplicasFileStopsTheBuildWithTheReadersMessage() throws Exception {
        Path conf = EchoNodes.groupConfig(dir, "none", 9001, 9002, 9003); // f=1 needs four agreement nodes
        AxisFault e = assertThrows(AxisFault.class, () -> BftClient.builder().replicas(conf).build());
        assertTrue(e.getMessage().contains("did not start") && e.getMessage().contains("3f+1 = 4"), e.getMessage());
    }

    @Test
    void anEndpointThatIsNoUrlIsRefusedWithAClearError() throws Exception {
        try (BftClient client = BftClient.builder().build()) {
            AxisFault e = assertThrows(AxisFault.class, () -> client.call("echo service", ECHO, EchoNodes.echo()));
            assertTrue(e.getMessage().contains("not an http(s) URL"), e.getMessage());
        }
    }
}
