package org.bftws.axis2.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.TestNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The paper's 3-tier echo end to end: client -> 4 relay replicas -> 4 backend replicas, all real Axis2 nodes over
 * HTTP (one start-up for both tests; relay3 turns Byzantine for the second).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(180)
class ThreeTierEchoTest {

    /** Relay 3's out-flow handler: when on, it alters the body of every nested echo it sends to the backend. */
    public static final class AlteredNestedEcho extends AbstractHandler {
        volatile boolean on;

        @Override
        public InvocationResponse invoke(MessageContext mc) {
            if (on && !mc.isServerSide() && "http://bftws.org/samples/echo/echo".equals(mc.getWSAAction())) {
                OMElement echo = mc.getEnvelope().getBody().getFirstElement();
                OMElement item = echo == null ? null : echo.getFirstElement();
                if (item != null) {
                    item.setText("FORGED " + item.getText());
                }
            }
            return InvocationResponse.CONTINUE;
        }
    }

    private final AlteredNestedEcho byzantine = new AlteredNestedEcho();
    private Path dir;
    private TwoGroups groups;
    private ServiceClient client;

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("three-tier");
        groups = new TwoGroups(dir, 3, byzantine);
        client = groups.client();
    }

    @AfterAll
    void stop() throws Exception {
        if (groups != null) {
            groups.close();
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static List<String> items(OMElement echoResponse) {
        List<String> out = new ArrayList<>();
        for (Iterator<OMElement> it = echoResponse.getChildElements(); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }

    static long executed(BftwsNode node) {
        return node.replica().invoker().executedRequests();
    }

    long[] executedEverywhere() {
        long[] e = new long[8];
        for (int i = 0; i < 4; i++) {
            e[i] = executed(groups.relay(i));
            e[4 + i] = executed(groups.backend(i));
        }
        return e;
    }

    /** Waits until every node executed {@code more} requests beyond {@code before}. */
    void awaitExecuted(long[] before, int more) throws InterruptedException {
        for (int t = 0; t < 400; t++) {
            long[] now = executedEverywhere();
            boolean all = true;
            for (int i = 0; i < 8; i++) {
                all &= now[i] >= before[i] + more;
            }
            if (all) {
                return;
            }
            Thread.sleep(25);
        }
    }

    @Test
    @Order(1)
    void anEchoThroughTheRelayGroupIsOrderedOnceByTheBackendAndEveryRelayReplicaGetsItsReply() throws Exception {
        long[] before = executedEverywhere();
        for (int k = 0; k < 3; k++) {
            OMElement reply = TestNodes.call(client, TestNodes.echo("a" + k, "b" + k));
            assertEquals("echoResponse", reply.getLocalName());
            assertEquals(List.of("a" + k, "b" + k), items(reply));
        }
        awaitExecuted(before, 3);
        long[] after = executedEverywhere();
        for (int i = 0; i < 4; i++) {
            // each relay replica finished every execution: its own nested call was answered every time
            assertEquals(3, after[i] - before[i], "relay" + i);
            // the backend ordered each nested request once, though four relay replicas sent it
            assertEquals(3, after[4 + i] - before[4 + i], "backend" + i);
            assertEquals(0, groups.backend(i).counters().refused.get(), "backend" + i + " refused nothing");
        }
    }

    @Test
    @Order(2)
    void aRelayReplicaSendingADifferentNestedRequestGetsNothingOrderedAndTheCorrectOnesGoOn() throws Exception {
        byzantine.on = true;
        long[] before = executedEverywhere();
        for (int k = 0; k < 3; k++) {
            OMElement reply = TestNodes.call(client, TestNodes.echo("x" + k));
            assertEquals(List.of("x" + k), items(reply), "the client's reply comes from the correct replicas");
        }
        awaitExecuted(before, 3);
        long[] after = executedEverywhere();
        long refused = 0;
        for (int i = 0; i < 4; i++) {
            assertEquals(3, after[4 + i] - before[4 + i], "backend" + i + " ordered only the correct requests");
            refused += groups.backend(i).counters().refused.get();
        }
        assertTrue(refused > 0, "the forged copies were refused, not ordered");
    }
}
