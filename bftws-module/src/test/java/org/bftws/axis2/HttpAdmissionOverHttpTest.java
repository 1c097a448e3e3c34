package org.bftws.axis2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.transport.http.server.HttpFactory;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.axis2.monitoring.HttpAdmissionCounters;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.NodeServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's HTTP server admits connections through a bounded queue (replicas.xml {@code <limits maxQueuedConnections
 * staleConnectionAfter>}, docs/operations.md "Connections"), over real sockets: idle connections hold the workers, and
 * what arrives beyond the queue is answered 503 without waiting for a worker, ahead of the queued connections; a
 * connection that waited longer than its client does is closed unread, so its request never runs.
 */
class HttpAdmissionOverHttpTest {

    private static final String STATUS = "GET /bftws/status HTTP/1.1\r\nHost: node0\r\nConnection: close\r\n\r\n";
    /** A WS-RM 1.1 CreateSequence: if a node processes it, it holds one more sequence. */
    private static final String CREATE_SEQUENCE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\""
            + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
            + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><s:Header>"
            + "<wsa:To>http://127.0.0.1/axis2/services/EchoService</wsa:To>"
            + "<wsa:Action>http://docs.oasis-open.org/ws-rx/wsrm/200702/CreateSequence</wsa:Action>"
            + "<wsa:MessageID>urn:uuid:0b7c2a52-54a4-4bb3-9a8c-6f0f4f6c3d11</wsa:MessageID>"
            + "<wsa:ReplyTo><wsa:Address>http://www.w3.org/2005/08/addressing/anonymous</wsa:Address></wsa:ReplyTo>"
            + "</s:Header><s:Body><wsrm:CreateSequence><wsrm:AcksTo>"
            + "<wsa:Address>http://www.w3.org/2005/08/addressing/anonymous</wsa:Address>"
            + "</wsrm:AcksTo></wsrm:CreateSequence></s:Body></s:Envelope>";
    private static final String CREATE = "POST /axis2/services/EchoService HTTP/1.1\r\nHost: node0\r\n"
            + "Content-Type: text/xml; charset=utf-8\r\n"
            + "SOAPAction: \"http://docs.oasis-open.org/ws-rx/wsrm/200702/CreateSequence\"\r\n"
            + "Content-Length: " + CREATE_SEQUENCE.length() + "\r\nConnection: close\r\n\r\n" + CREATE_SEQUENCE;

    @TempDir
    Path dir;

    @Test
    void aConnectionBeyondTheQueueIsAnswered503WithoutWaitingForAWorkerAndQueuedOnesAreServedAsWorkersFree()
            throws Exception {
        try (NodeServer node = node(2, 2, "30s")) {
            HttpAdmissionCounters counters = HttpAdmissionCounters.of(node.context());
            Socket idleA = open(node);
            Socket idleB = open(node);
            await(() -> counters.served.get() == 2, "both workers hold an idle connection");
            Socket queuedC = send(open(node), STATUS);
            Socket queuedD = send(open(node), STATUS);
            await(() -> counters.queuedConnections() == 2, "two connections wait for a worker");

            // the 503 must come while both workers are still held and both queued connections still wait: the
            // overflow did not wait for a worker (were it queued, nothing would answer it until idleA closes)
            String overflow = readAll(send(open(node), STATUS), "the connection beyond the queue");
            assertTrue(overflow.startsWith("HTTP/1.1 503 "), "the connection beyond the queue: " + overflow);
            assertTrue(overflow.contains("Connection: close\r\n"), overflow);
            assertEquals(2, counters.served.get(), "answered without a worker");
            assertEquals(1, counters.refusedQueueFull.get());
            assertEquals(2, counters.queuedConnections(), "the refused connection took no place in the queue");

            idleA.close(); // a worker frees: the queued connections are served in their order
            assertTrue(readAll(queuedC).startsWith("HTTP/1.1 200 "));
            assertTrue(readAll(queuedD).startsWith("HTTP/1.1 200 "));
            String honest = readAll(send(open(node), STATUS));
            assertTrue(honest.startsWith("HTTP/1.1 200 ") && honest.contains("\"connectionCounters\""), honest);
            assertTrue(honest.contains("\"connections refused: queue full\":1"), honest);
            assertEquals(0, counters.queuedConnections());
            assertEquals(5, counters.served.get());
            assertEquals(0, counters.staleDropped.get());
            idleB.close();
        }
    }

    @Test
    void aConnectionThatWaitedLongerThanStaleConnectionAfterIsClosedUnreadAndItsRequestNeverRuns() throws Exception {
        try (NodeServer node = node(1, 4, "300ms")) {
            HttpAdmissionCounters counters = HttpAdmissionCounters.of(node.context());
            BftwsNode bftws = BftwsNode.of(node.context());
            Socket idle = open(node);
            await(() -> counters.served.get() == 1, "the worker holds an idle connection");
            Socket stale = send(open(node), CREATE);
            await(() -> counters.queuedConnections() == 1, "the request waits for the worker");
            String before = bftws.counters().toString();

            // its client (clientTimeout 300 ms) has given up by now: a sleep only lasts longer on a loaded machine,
            // and the connection has waited since it was queued (above)
            Thread.sleep(500);
            idle.close();
            assertEquals("", readAll(stale), "closed without an answer");
            await(() -> counters.staleDropped.get() == 1, "counted as a stale connection dropped");
            assertEquals(before, bftws.counters().toString(), "nothing of the request was processed");
            assertEquals(0, bftws.destination().sequences().size(), "no sequence was created");
            assertEquals(1, counters.served.get());

            // the same request on a fresh connection creates a sequence: the checks above would have seen it run
            String created = readAll(send(open(node), CREATE));
            assertTrue(created.startsWith("HTTP/1.1 200 ") && created.contains("CreateSequenceResponse"), created);
            assertEquals(1, bftws.counters().sequencesCreated.get());
            assertEquals(1, bftws.destination().sequences().size());
            assertEquals(1, counters.staleDropped.get());
        }
    }

    /** node0, the one node of a plain WS-RM echo group whose limits are given, served with {@code workers} threads. */
    private NodeServer node(int workers, int maxQueued, String staleAfter) throws Exception {
        int port = NodeServer.freePort();
        Path replicas = Files.writeString(Files.createDirectories(dir).resolve("replicas.xml"),
                "<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.test/axis2/services/EchoService\""
                + " f=\"0\" bft=\"false\">\n<security profile=\"none\"/>\n<protocol clientTimeout=\"" + staleAfter
                + "\"/>\n<limits maxQueuedConnections=\"" + maxQueued + "\"/>\n"
                + "<node id=\"0\" name=\"node0\" serviceEndpoint=\"http://127.0.0.1:" + port
                + "/axis2/services/EchoService\" controlEndpoint=\"http://127.0.0.1:" + port
                + "/axis2/services/BftControl\"/>\n</group>\n</replicas>\n");
        ConfigurationContext ctx = BftwsConfigurator.context(TestNodes.repository(dir.resolve("node0"), true),
                TestNodes.AXIS2_XML, replicas, "node0");
        ctx.getAxisConfiguration().getTransportIn("http").addParameter(
                new Parameter(HttpFactory.PARAMETER_REQUEST_CORE_THREAD_POOL_SIZE, Integer.toString(workers)));
        return NodeServer.serve(ctx, port);
    }

    private static Socket open(NodeServer node) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), node.port());
        s.setSoTimeout(60_000); // a loaded machine may take seconds; a connection nobody answers fails
        return s;
    }

    private static Socket send(Socket s, String request) throws IOException {
        s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    /** Everything the server sends until it closes the connection ("" when it closes without a byte). */
    private static String readAll(Socket s) throws IOException {
        return readAll(s, "the connection");
    }

    /** As {@link #readAll(Socket)}; fails naming {@code what} when the server neither answers nor closes it. */
    private static String readAll(Socket s, String what) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (s) {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                out.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError(what + " got no answer in " + s.getSoTimeout() / 1000 + " s: "
                    + out.toString(StandardCharsets.UTF_8), e);
        } catch (SocketException reset) {
            // closed unread with the request still in its buffer: a reset instead of an end of stream
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(5);
        }
    }
}
