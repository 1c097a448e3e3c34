package org.bftws.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.core.ReplyPolicy;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BftClient.callAsync against four PBFT replicas (profile mac) in this JVM, one of which signs wrong echo replies:
 * many calls of one client in flight at once, each future completing with the decided reply or with the AxisFault
 * the blocking call throws, a bounded number in flight, and close() with calls still running.
 */
class BftClientAsyncTest {
    private static final String ECHO = EchoNodes.ACTION + "echo";
    private static final String APPEND = EchoNodes.ACTION + "append";
    private static final String GET_STATE = EchoNodes.ACTION + "get_state";
    /** A bound against a hang, not a speed target. */
    private static final long HANG_GUARD_SECONDS = 180;

    @TempDir
    Path dir;

    private static OMElement await(CompletableFuture<OMElement> f) throws Exception {
        return f.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    }

    /** The AxisFault a future completed with. */
    private static AxisFault faultOf(CompletableFuture<OMElement> f) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> await(f));
        return assertInstanceOf(AxisFault.class, e.getCause());
    }

    private static List<String> stateEntries(OMElement getStateResponse) {
        List<String> out = new ArrayList<>();
        OMElement state = getStateResponse.getFirstElement();
        for (Iterator<OMElement> it = state.getChildrenWithName(new QName(EchoService.NS, "entry")); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }

    @Test
    void aHundredCallsInFlightFromOneClientEachGetTheVotedReplyAndEachAppendExecutesOnce() throws Exception {
        int[] p = org.bftws.axis2.standalone.NodeServer.freePorts(4);
        Path conf = EchoNodes.groupConfig(dir, "mac", p);
        WrongEchoReplies byzantine = new WrongEchoReplies();
        try (EchoNodes nodes = new EchoNodes(dir)) {
            List<ConfigurationContext> replicas = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(nodes.start("replica" + i, p[i], conf, "replica" + i, i == 3 ? byzantine : null));
            }
            try (BftClient client = BftClient.builder().replicas(conf).party("client1").maxInFlight(100)
                    .replyPolicy(GET_STATE, ReplyPolicy.STRONG_QUORUM).build()) {
                long start = System.nanoTime();
                List<CompletableFuture<OMElement>> calls = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    calls.add(i % 2 == 0 ? client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("e" + i, "x"))
                            : client.callAsync(EchoNodes.GROUP, APPEND, EchoNodes.append("a" + i)));
                }
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                        .get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
                long coldMillis = (System.nanoTime() - start) / 1_000_000;
                List<Integer> counts = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    OMElement reply = await(calls.get(i));
                    if (i % 2 == 0) {
                        assertEquals(List.of("e" + i, "x"), EchoNodes.texts(reply), "the decided echo of call " + i);
                    } else {
                        counts.add(Integer.valueOf(EchoNodes.texts(reply).get(0)));
                    }
                }
                counts.sort(null);
                assertEquals(IntStream.rangeClosed(1, 50).boxed().toList(), counts,
                        "each append executed once: the counts its replies carry are distinct and contiguous");
                assertTrue(byzantine.rewroteAtLeast(1), "replica3 did answer wrongly");

                // 2f+1 replicas agree that the state holds each appended value exactly once
                List<String> entries = stateEntries(client.call(EchoNodes.GROUP, GET_STATE,
                        EchoNodes.element("get_state")));
                assertEquals(IntStream.range(0, 100).filter(i -> i % 2 == 1).mapToObj(i -> "a" + i).sorted().toList(),
                        entries.stream().sorted().toList());

                // warm: the same hundred in flight again, and a hundred one after the other, for the figures
                start = System.nanoTime();
                List<CompletableFuture<OMElement>> again = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    again.add(client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("w" + i)));
                }
                for (int i = 0; i < 100; i++) {
                    assertEquals(List.of("w" + i), EchoNodes.texts(await(again.get(i))));
                }
                long warmAsyncMillis = (System.nanoTime() - start) / 1_000_000;
                start = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    assertEquals(List.of("s" + i),
                            EchoNodes.texts(client.call(EchoNodes.GROUP, ECHO, EchoNodes.echo("s" + i))));
                }
                long sequentialMillis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("BftClientAsyncTest figures (4 replicas + client in one JVM, profile mac): 100 calls"
                        + " in flight %d ms with their 100 CreateSequences, %d ms warm; 100 sequential calls %d ms;"
                        + " at most %d in flight at once%n", coldMillis, warmAsyncMillis, sequentialMillis,
                        client.peakInFlight());

                // a sequence per worker, reused: 300 calls opened at most 100 + 1 (the test thread's own). Counted as
                // the sequences a replica holds, not as CreateSequences it answered: a CreateSequence the client
                // retransmits (a replica slow to answer on a loaded machine) is answered again, with the same sequence.
                for (ConfigurationContext replica : replicas) {
                    long opened = BftwsNode.of(replica).destination().sequences().size();
                    assertTrue(opened <= 101, "sequences a replica holds for the client: " + opened);
                }
                start = System.nanoTime();
                client.close();
                System.out.printf("BftClientAsyncTest figures: close() terminated the client's sequences in %d ms%n",
                        (System.nanoTime() - start) / 1_000_000);
            }
        }
    }

    private static OMElement append(String value) {
        return EchoNodes.append(value);
    }

    @Test
    void theDocumentedExampleGetsEveryReplyFromItsFuture() throws Exception {
        int[] p = org.bftws.axis2.standalone.NodeServer.freePorts(4);
        Path replicasXml = EchoNodes.groupConfig(dir, "mac", p);
        String endpoint = EchoNodes.GROUP;
        List<Integer> counts = new ArrayList<>();
        List<AxisFault> faults = new ArrayList<>();
        try (EchoNodes nodes = new EchoNodes(dir)) {
            for (int i = 0; i < 4; i++) {
                nodes.start("replica" + i, p[i], replicasXml, "replica" + i, null);
            }
            // docs/client.md, "Asynchronous calls", as it stands there
            try (BftClient client = BftClient.builder().replicas(replicasXml).party("client1")
                    .maxInFlight(64)                      // at most 64 calls in flight; callAsync waits while 64 are
                    .closeGrace(Duration.ofSeconds(10))   // close() waits 10 s for calls in flight, then fails them
                    .build()) {
                List<CompletableFuture<OMElement>> calls = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    calls.add(client.callAsync(endpoint, "http://bftws.org/samples/echo/append", append("v" + i)));
                }
                for (CompletableFuture<OMElement> call : calls) {
                    try {
                        OMElement reply = call.get();                   // the decided reply's Body content
                        counts.add(Integer.valueOf(reply.getFirstElement().getText()));     // appendResponse/count
                    } catch (ExecutionException e) {
                        faults.add((AxisFault) e.getCause());           // what call() would have thrown
                    }
                }
            }
        }
        assertEquals(List.of(), faults);
        counts.sort(null);
        assertEquals(IntStream.rangeClosed(1, 100).boxed().toList(), counts, "each append executed once");
    }

    @Test
    void aCallThatCannotBeDecidedCompletesExceptionallyWithTheFaultTheBlockingCallThrows() throws Exception {
        int[] p = org.bftws.axis2.standalone.NodeServer.freePorts(4);
        Path conf = EchoNodes.groupConfig(dir, "mac", p);
        try (EchoNodes nodes = new EchoNodes(dir)) {
            for (int i = 0; i < 4; i++) {
                nodes.start("replica" + i, p[i], conf, "replica" + i, i == 3 ? new WrongEchoReplies() : null);
            }
            try (BftClient client = BftClient.builder().replicas(conf).party("client1")
                    .replyPolicy(ECHO, ReplyPolicy.ALL).build()) {
                // ALL needs replica3's reply too, which is wrong: no reply can be decided
                AxisFault async = faultOf(client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("c")));
                AxisFault blocking = assertThrows(AxisFault.class,
                        () -> client.call(EchoNodes.GROUP, ECHO, EchoNodes.echo("c")));
                for (AxisFault f : List.of(async, blocking)) {
                    assertTrue(f.getMessage().contains("no reply decided") && f.getMessage().contains("inconclusive")
                            && f.getMessage().contains("replica3") && f.getMessage().contains("WRONG c"),
                            f.getMessage());
                }

                // the service's own fault, decided by the replicas, is the future's failure as it is call()'s
                AxisFault asyncFault = faultOf(client.callAsync(EchoNodes.GROUP, APPEND, EchoNodes.element("bogus")));
                AxisFault blockingFault = assertThrows(AxisFault.class,
                        () -> client.call(EchoNodes.GROUP, APPEND, EchoNodes.element("bogus")));
                assertEquals(blockingFault.getMessage(), asyncFault.getMessage());
                assertEquals(blockingFault.getFaultCode(), asyncFault.getFaultCode());
                assertTrue(asyncFault.getMessage().contains("}bogus"), asyncFault.getMessage());

                AxisFault noUrl = faultOf(client.callAsync("echo service", ECHO, EchoNodes.echo()));
                assertTrue(noUrl.getMessage().contains("not an http(s) URL"), noUrl.getMessage());
                client.close();
                AxisFault closed = faultOf(client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("late")));
                assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
            }
        }
    }

    @Test
    void aCallToAGroupThatNeverAnswersFailsWithWhatBecameOfEachReplica() throws Exception {
        // nothing listens on the replicas' ports; a short schedule: each gets the message twice, then is given up
        int[] p = org.bftws.axis2.standalone.NodeServer.freePorts(4);
        Path conf = EchoNodes.groupConfig(dir, "mac",
                "clientTimeout=\"300ms\" retransmissionInterval=\"50ms\" maxRetransmissions=\"1\"", p);
        try (BftClient client = BftClient.builder().replicas(conf).party("client1").build()) {
            AxisFault async = faultOf(client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("nobody")));
            AxisFault blocking = assertThrows(AxisFault.class,
                    () -> client.call(EchoNodes.GROUP, ECHO, EchoNodes.echo("nobody")));
            for (AxisFault f : List.of(async, blocking)) {
                assertTrue(f.getMessage().contains("no reply decided") && f.getMessage().contains("undecided")
                        && f.getMessage().contains("replica0") && f.getMessage().contains("replica3")
                        && f.getMessage().contains("no final reply after 1 retransmissions"), f.getMessage());
            }
        }
    }

    @Test
    void callersBeyondTheInFlightLimitWaitAndCloseFailsTheCallsStillRunning() throws Exception {
        // a group none of whose replicas runs: a call retransmits for its whole schedule (minutes) and stays in flight
        int[] p = org.bftws.axis2.standalone.NodeServer.freePorts(4);
        Path conf = EchoNodes.groupConfig(dir, "mac", p);
        BftClient client = BftClient.builder().replicas(conf).party("client1").maxInFlight(1)
                .closeGrace(Duration.ofMillis(500)).build();
        CompletableFuture<OMElement> running = client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("stuck"));

        // the only slot is taken: a second caller waits in callAsync until interrupted
        AtomicReference<CompletableFuture<OMElement>> second = new AtomicReference<>();
        Thread caller = new Thread(() -> second.set(client.callAsync(EchoNodes.GROUP, ECHO, EchoNodes.echo("2"))));
        caller.start();
        long guard = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        while (caller.getState() != Thread.State.WAITING && caller.isAlive() && System.nanoTime() < guard) {
            Thread.sleep(10);
        }
        assertEquals(Thread.State.WAITING, caller.getState(), "the second caller waits for the slot");
        caller.interrupt();
        caller.join();
        AxisFault waited = faultOf(second.get());
        assertTrue(waited.getMessage().contains("interrupted while waiting for one of the 1 in-flight call slots"),
                waited.getMessage());

        client.close();
        AxisFault closed = faultOf(running);
        assertTrue(closed.getMessage().contains("closed while this call was in flight"), closed.getMessage());
    }
}
