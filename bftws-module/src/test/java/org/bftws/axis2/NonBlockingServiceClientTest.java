package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.node.BftwsNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.client.async.AxisCallback;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Axis2's own non-blocking API with the bftws module engaged: {@code ServiceClient.sendReceiveNonBlocking} runs the
 * send (OutHandler, signing, MulticastSender, the client Voter) on a worker of the engine's thread pool and hands
 * the decided reply to the AxisCallback, through the client's in-flow. Four replicas (profile mac), one of which
 * returns wrong, authentic echo replies.
 */
class NonBlockingServiceClientTest {
    private static final long HANG_GUARD_SECONDS = 60; // a bound against a hang, not a speed target

    @TempDir
    Path dir;

    /** What an AxisCallback was told, recorded once onComplete said the exchange is over. */
    record Outcome(String event, OMElement body, Exception error, Integer view) {
    }

    /** Records the callback's events; the body is copied inside the callback, while the exchange still holds it. */
    static final class Recording implements AxisCallback {
        final CompletableFuture<Outcome> done = new CompletableFuture<>();
        private volatile Outcome outcome;

        @Override
        public void onMessage(MessageContext reply) {
            outcome = new Outcome("onMessage", reply.getEnvelope().getBody().getFirstElement().cloneOMElement(),
                    null, (Integer) reply.getOperationContext().getProperty(ReplyVoting.ACCEPTED_VIEW));
        }

        @Override
        public void onFault(MessageContext fault) {
            outcome = new Outcome("onFault", fault.getEnvelope().getBody().getFault().cloneOMElement(), null, null);
        }

        @Override
        public void onError(Exception e) {
            outcome = new Outcome("onError", null, e, null);
        }

        @Override
        public void onComplete() {
            done.complete(outcome);
        }
    }

    private static Outcome callNonBlocking(ServiceClient client, OMElement payload) throws Exception {
        client.getOptions().setAction(EchoService.NS + "/echo");
        Recording callback = new Recording();
        client.sendReceiveNonBlocking(payload, callback);
        return callback.done.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void sendReceiveNonBlockingDeliversTheVotedReplyToOnMessageAndTheDecidedFaultToOnFault() throws Exception {
        int[] p = NodeServer.freePorts(4);
        WrongEchoReplies byzantine = new WrongEchoReplies();
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\"",
                List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                        EchoReplicas.endpoint(p[3])))) {
            for (int i = 0; i < 4; i++) {
                group.startNode(i, p[i], i == 3 ? byzantine : null);
            }
            ConfigurationContext ctx = group.client();
            ServiceClient client = TestNodes.serviceClient(ctx, EchoReplicas.GROUP);

            for (int i = 0; i < 3; i++) {
                Outcome echoed = callNonBlocking(client, TestNodes.echo("nb" + i, "x"));
                assertEquals("onMessage", echoed.event(), String.valueOf(echoed.error()));
                assertEquals(List.of("nb" + i, "x"), ReplicatedEchoVotingTest.items(echoed.body()));
                assertEquals(0, echoed.view(), "the vote's view reaches the callback's operation context");
            }
            assertTrue(byzantine.rewroteAtLeast(3), "replica3 did answer wrongly");

            // the service's fault, returned alike by the correct replicas, is decided and reaches onFault
            client.getOptions().setExceptionToBeThrownOnSOAPFault(false);
            Outcome fault = callNonBlocking(client, TestNodes.echo("y").getFirstElement()); // echo expects <echo>
            assertEquals("onFault", fault.event(), String.valueOf(fault.error()));
            assertTrue(fault.body().toString().contains("but got {" + EchoService.NS + "}item"),
                    fault.body().toString());

            // Axis2's default turns a decided fault into onError with the AxisFault sendReceive would throw
            client.getOptions().setExceptionToBeThrownOnSOAPFault(true);
            Outcome error = callNonBlocking(client, TestNodes.echo("z").getFirstElement());
            assertEquals("onError", error.event());
            assertNull(error.body());
            assertTrue(error.error() instanceof AxisFault
                    && error.error().getMessage().contains("but got {" + EchoService.NS + "}item"),
                    String.valueOf(error.error()));

            // the sequence survives: a blocking call after the non-blocking ones is still in order
            assertEquals(List.of("after"),
                    ReplicatedEchoVotingTest.items(TestNodes.call(client, TestNodes.echo("after"))));

            OMElement payload = TestNodes.echo("documented");
            // docs/client.md's example, as it stands there
            CompletableFuture<OMElement> answer = new CompletableFuture<>();
            client.sendReceiveNonBlocking(payload, new AxisCallback() {
                @Override
                public void onMessage(MessageContext reply) {   // the decided reply, through the client's in-flow
                    answer.complete(reply.getEnvelope().getBody().getFirstElement().cloneOMElement());
                }

                @Override
                public void onFault(MessageContext fault) {     // a decided SOAP fault (see below)
                    answer.completeExceptionally(new AxisFault(fault.getEnvelope().getBody().getFault(), fault));
                }

                @Override
                public void onError(Exception e) {              // no reply decided, or by default a decided fault
                    answer.completeExceptionally(e);
                }

                @Override
                public void onComplete() {
                }
            });
            assertEquals(List.of("documented"),
                    ReplicatedEchoVotingTest.items(answer.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS)));
        }
    }

    @Test
    void nonBlockingCallsInFlightTogetherOnOneServiceClientShareItsSequenceAndEachExecutesOnce() throws Exception {
        int[] p = NodeServer.freePorts(4);
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\"",
                List.of(EchoReplicas.endpoint(p[0]), EchoReplicas.endpoint(p[1]), EchoReplicas.endpoint(p[2]),
                        EchoReplicas.endpoint(p[3])))) {
            List<ConfigurationContext> replicas = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(group.startNode(i, p[i], i == 3 ? new WrongEchoReplies() : null));
            }
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            client.getOptions().setAction(EchoService.NS + "/append");
            List<Recording> callbacks = new java.util.ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Recording callback = new Recording();
                client.sendReceiveNonBlocking(TestNodes.append("v" + i), callback);
                callbacks.add(callback);
            }
            List<Integer> counts = new java.util.ArrayList<>();
            for (Recording callback : callbacks) {
                Outcome appended = callback.done.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
                assertEquals("onMessage", appended.event(), String.valueOf(appended.error()));
                counts.add(Integer.valueOf(TestNodes.child(appended.body(), "count")));
            }
            counts.sort(null);
            assertEquals(java.util.stream.IntStream.rangeClosed(1, 20).boxed().toList(), counts,
                    "each append executed once, on the one sequence of this ServiceClient");
            assertEquals(1, BftwsNode.of(replicas.get(0)).counters().sequencesCreated.get(),
                    "the calls were numbered messages of one sequence");
        }
    }
}
