package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.bftws.samples.kv.KvRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration III shared by several services (paper 3.3.3: the agreement nodes may serve several Web services):
 * one set of four agreement nodes orders the echo and key-value services, each executed by its own three execution
 * nodes. Both are answered, each execution group ends in one state; and an execution group that cannot answer (more
 * than f of its nodes down) holds back neither the agreement nodes nor the other service.
 */
class SharedAgreementGroupTest {

    private static final String PROTOCOL = BftTestGroup.protocol(4, "2s");

    @TempDir
    Path dir;

    @Test
    void twoServicesOnOneAgreementGroupAreBothAnsweredAndEachExecutionGroupEndsInOneState() throws Exception {
        try (SharedAgreementTestGroup g = SharedAgreementTestGroup.start(dir, "mac", PROTOCOL)) {
            ServiceClient echo = g.client(SharedAgreementTestGroup.ECHO);
            ServiceClient kv = g.client(SharedAgreementTestGroup.KV);
            for (int i = 1; i <= 6; i++) {
                OMElement appended = SharedAgreementTestGroup.call(echo, BftTestGroup.append("a" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(appended, "count"));
                OMElement put = SharedAgreementTestGroup.call(kv, KvRequests.put("k" + (i % 2), i));
                assertTrue(put.getLocalName().startsWith("put"), put.toString());
            }
            assertEquals("5", KvRequests.text(SharedAgreementTestGroup.call(kv, KvRequests.get("k1")), "value"));
            assertEquals("6", KvRequests.text(SharedAgreementTestGroup.call(kv, KvRequests.get("k0")), "value"));

            String echoState = awaitEchoCount(g, 0, 6);
            String kvState = awaitKvState(g, 0, "k0");
            for (int i = 1; i < 3; i++) {
                // a call returns on f+1 replies: the last execution node may still be executing, so wait (bounded)
                assertEquals(echoState, awaitEchoCount(g, i, 6), "echo-exec" + i + " has echo's state");
                assertEquals(kvState, awaitState(g, SharedAgreementTestGroup.KV, i, kvState), "kv-exec" + i
                        + " has kv's state");
            }
            assertFalse(kvState.contains("a1"), "kv's execution nodes executed none of echo's requests");
            for (int a = 0; a < 4; a++) {
                for (String service : SharedAgreementTestGroup.SERVICES) {
                    assertFalse(g.node("agree" + a, service).replica().executes(),
                            "agree" + a + " orders " + service + " without running it");
                }
            }
        }
    }

    @Test
    void aServiceWhoseExecutionGroupCannotAnswerHoldsBackNeitherTheAgreementNodesNorTheOtherService()
            throws Exception {
        ExecutorService background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "stalled-kv-call");
            t.setDaemon(true);
            return t;
        });
        try (SharedAgreementTestGroup g = SharedAgreementTestGroup.start(dir, "mac", PROTOCOL)) {
            ServiceClient echo = g.client(SharedAgreementTestGroup.ECHO);
            ServiceClient kv = g.client(SharedAgreementTestGroup.KV);
            SharedAgreementTestGroup.call(kv, KvRequests.put("before", 1));
            // two of kv's three execution nodes (more than f=1) go down: kv can give no client f+1 replies
            g.stopExecutionNode(SharedAgreementTestGroup.KV, 1);
            g.stopExecutionNode(SharedAgreementTestGroup.KV, 2);
            Future<OMElement> stalled = background.submit(
                    () -> SharedAgreementTestGroup.call(kv, KvRequests.put("after", 2)));

            // echo goes on past a watermark window (16) and through several checkpoints (every 4)
            long started = System.nanoTime();
            int appends = 24;
            for (int i = 1; i <= appends; i++) {
                OMElement appended = SharedAgreementTestGroup.call(echo, BftTestGroup.append("e" + i));
                assertEquals(Integer.toString(i), BftTestGroup.child(appended, "count"));
            }
            String echoState = awaitEchoCount(g, 0, appends);
            for (int i = 1; i < 3; i++) {
                assertEquals(echoState, awaitEchoCount(g, i, appends), "echo-exec" + i + " has echo's state");
            }
            System.out.printf("echo: %d appends in %d ms while kv could not answer%n", appends,
                    (System.nanoTime() - started) / 1_000_000);
            for (int a = 0; a < 4; a++) {
                var manager = g.node("agree" + a, SharedAgreementTestGroup.ECHO).replica().manager();
                for (int t = 0; t < 200 && manager.stableCheckpoint() < 16; t++) {
                    Thread.sleep(50); // checkpoint messages may still be on their way to the last agreement node
                }
                assertTrue(manager.stableCheckpoint() >= 16, "agree" + a + " moved echo's window on (stable checkpoint "
                        + manager.stableCheckpoint() + ")");
            }
            assertFalse(stalled.isDone(), "kv, with two of its three execution nodes down, cannot answer");
        } finally {
            background.shutdownNow();
        }
    }

    private static String awaitEchoCount(SharedAgreementTestGroup g, int i, int count) throws Exception {
        String s = g.state(SharedAgreementTestGroup.ECHO, i);
        for (int t = 0; t < 200 && !s.endsWith("/" + count); t++) {
            Thread.sleep(50);
            s = g.state(SharedAgreementTestGroup.ECHO, i);
        }
        assertTrue(s.endsWith("/" + count), "echo-exec" + i + " executed all " + count + " appends: " + s);
        return s;
    }

    private static String awaitKvState(SharedAgreementTestGroup g, int i, String containing) throws Exception {
        String s = g.state(SharedAgreementTestGroup.KV, i);
        for (int t = 0; t < 200 && !s.contains(containing); t++) {
            Thread.sleep(50);
            s = g.state(SharedAgreementTestGroup.KV, i);
        }
        return s;
    }

    private static String awaitState(SharedAgreementTestGroup g, String service, int i, String expected)
            throws Exception {
        String s = g.state(service, i);
        for (int t = 0; t < 200 && !s.equals(expected); t++) {
            Thread.sleep(50);
            s = g.state(service, i);
        }
        return s;
    }
}
