package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.node.BftwsNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.voting.VotingCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain Axis2 route against four replicas over real HTTP: a ServiceClient with the bftws module engaged calls
 * the group endpoint, the MulticastSender sends to every replica, and the client Voter decides. One replica is
 * Byzantine (it signs wrong echo replies), hangs, or holds the first copy of a request.
 */
class ReplicatedEchoVotingTest {

    @TempDir
    Path dir;

    static List<String> items(OMElement echoResponse) {
        List<String> out = new ArrayList<>();
        for (Iterator<OMElement> it = echoResponse.getChildElements(); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }

    private static int[] ports(int n) throws Exception {
        return NodeServer.freePorts(n);
    }

    @Test
    void aReplicaSigningWrongRepliesChangesNothingTheClientAccepts() throws Exception {
        int[] p = ports(4);
        WrongEchoReplies byzantine = new WrongEchoReplies();
        // a loaded machine must not make the backups suspect the primary: the test asserts replies of view 0
        try (EchoReplicas group = new EchoReplicas(dir, "wssec", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\"",
                List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                        EchoReplicas.endpoint(p[3])))) {
            for (int i = 0; i < 4; i++) {
                group.startNode(i, p[i], i == 3 ? byzantine : null);
            }
            ConfigurationContext ctx = group.client();
            ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);
            for (int i = 0; i < 5; i++) {
                assertEquals(List.of("a" + i, "b"), items(TestNodes.call(client, TestNodes.echo("a" + i, "b"))));
                @SuppressWarnings("unchecked")
                List<String> agreeing = (List<String>) client.getLastOperationContext()
                        .getProperty(ReplyVoting.AGREEING);
                assertFalse(agreeing.contains("replica3"), agreeing.toString());
                assertEquals(0, client.getLastOperationContext().getProperty(ReplyVoting.ACCEPTED_VIEW));
            }
            VotingCounters counters = BftwsNode.of(ctx).voting().counters();
            assertEquals(0, counters.dropped.get(), "the wrong replies are authentic: outvoted, not forged");
            assertEquals(0, counters.refusals().total());

            // the switch works: with a policy that needs every replica, replica3's wrong answer is seen and named
            client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, "ALL");
            AxisFault inconclusive = assertThrows(AxisFault.class, () -> TestNodes.call(client, TestNodes.echo("c")));
            assertTrue(inconclusive.getMessage().contains("inconclusive")
                    && inconclusive.getMessage().contains("replica3") && inconclusive.getMessage().contains("WRONG c"),
                    inconclusive.getMessage());
            assertTrue(byzantine.rewritten.get() >= 6, "replica3 answered every echo wrongly");

            // 2f+1 identical replies are still there without replica3
            client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, "STRONG_QUORUM");
            assertEquals(List.of("d"), items(TestNodes.call(client, TestNodes.echo("d"))));
        }
    }

    @Test
    void aServiceClientThatEngagesTheModulesItselfVotesLikeOneWhoseAxis2XmlEngagesThem() throws Exception {
        int[] p = ports(4);
        try (EchoReplicas group = new EchoReplicas(dir, "none", "clientTimeout=\"5s\"",
                List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                        EchoReplicas.endpoint(p[3])))) {
            for (int i = 0; i < 4; i++) {
                group.startNode(i, p[i], null);
            }
            // an axis2.xml that engages no module: the application engages them on its ServiceClient only
            ConfigurationContext ctx = org.bftws.axis2.client.BftwsConfigurator.context(
                    TestNodes.repository(dir.resolve("own-client"), false), TestNodes.PLAIN_AXIS2_XML,
                    group.replicasXml, "client1");
            try {
                ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);
                client.engageModule("addressing");
                client.engageModule("bftws");
                assertEquals(List.of("own"), items(TestNodes.call(client, TestNodes.echo("own"))));
                assertEquals(2, BftwsNode.of(ctx).voting().counters().decided.get(), "CreateSequence and the echo");
            } finally {
                ctx.terminate();
            }
        }
    }

    @Test
    void aSilentReplicaGetsNoRetransmissionsOnceTheVoteIsSettled() throws Exception {
        int[] p = ports(3);
        try (SilentNode silent = new SilentNode();
             EchoReplicas group = new EchoReplicas(dir, "none",
                     "clientTimeout=\"700ms\" retransmissionInterval=\"100ms\" maxRetransmissions=\"8\"",
                     List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                             EchoReplicas.endpoint(silent.port())),
                     // the silent replica's PBFT traffic goes nowhere: only client traffic reaches the silent socket
                     List.of(EchoReplicas.control(p[0]), EchoReplicas.control(p[1]), EchoReplicas.control(p[2]),
                             "http://127.0.0.1:1/axis2/services/BftControl"))) {
            for (int i = 0; i < 3; i++) {
                group.startNode(i, p[i], null);
            }
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            for (int i = 0; i < 3; i++) {
                assertEquals(List.of("x" + i), items(TestNodes.call(client, TestNodes.echo("x" + i))));
            }
            // each first attempt to the silent replica times out after 700 ms; by then the vote is long settled
            Thread.sleep(700 + 100 + 1_000);
            assertEquals(1 + 3, silent.posts.get(), "CreateSequence and three echoes, each sent once");
        }
    }

    @Test
    void aReplicaThatHoldsTheFirstCopyBeyondTheGroupsClientTimeoutGetsItAgainAndItsAnswerCounts() throws Exception {
        int[] p = ports(4);
        // replica1 sits behind a proxy that holds the first echo request 2.8 s, beyond the group's clientTimeout of
        // 500 ms (and within the module's default attempt timeout of 3 s, which must therefore not be the one used:
        // with it, the held copy would reach replica1 before any retransmission and decide the vote)
        // (the first request whose body is the echo: which index it gets depends on how many CreateSequence
        // attempts reached replica1 before it)
        java.util.concurrent.atomic.AtomicInteger held = new java.util.concurrent.atomic.AtomicInteger(-1);
        LossyProxy.Plan holdFirstEcho = new LossyProxy.Plan() {
            @Override
            public LossyProxy.Fate fate(int index, String body) {
                if (body.contains(">held<")) {
                    held.compareAndSet(-1, index);
                }
                return LossyProxy.Fate.PASS;
            }

            @Override
            public long delayMillis(int index) {
                return index == held.get() ? 2_800 : 0;
            }
        };
        try (LossyProxy proxy = new LossyProxy(URI.create("http://127.0.0.1:" + p[1]), holdFirstEcho);
             EchoReplicas group = new EchoReplicas(dir, "none",
                     "clientTimeout=\"500ms\" retransmissionInterval=\"100ms\" maxRetransmissions=\"8\"",
                     List.of(EchoReplicas.endpoint(p[0]), proxy.address(EchoReplicas.SERVICE_PATH),
                             EchoReplicas.endpoint(p[2]), EchoReplicas.endpoint(p[3])),
                     // PBFT traffic bypasses the proxy, which holds client traffic only
                     List.of(EchoReplicas.control(p[0]), EchoReplicas.control(p[1]), EchoReplicas.control(p[2]),
                             EchoReplicas.control(p[3])))) {
            for (int i = 0; i < 4; i++) {
                group.startNode(i, p[i], null);
            }
            ConfigurationContext ctx = group.client();
            ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);
            client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, "ALL"); // the vote needs replica1's answer
            long start = System.nanoTime();
            assertEquals(List.of("held"), items(TestNodes.call(client, TestNodes.echo("held"))));
            long millis = (System.nanoTime() - start) / 1_000_000;
            // the order of events, not a duration: the vote was decided while the held copy was still held
            assertTrue(held.get() >= 0, "no echo reached replica1's proxy");
            assertFalse(proxy.forwarded.contains(held.get()), "decided by the held copy, not the retransmission: "
                    + millis + " ms, the proxy forwarded " + proxy.forwarded + ", held " + held.get());
            assertTrue(millis >= 500, "retransmitted before the group's clientTimeout: " + millis + " ms");
            assertTrue(proxy.requests.get() >= 3, "CreateSequence, the held echo and its retransmission");
            assertTrue(BftwsNode.of(ctx).counters().retransmissions.get() >= 1);
        }
    }
}
