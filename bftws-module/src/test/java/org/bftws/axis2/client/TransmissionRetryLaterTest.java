package org.bftws.axis2.client;

import org.bftws.voting.FirstReply;
import org.bftws.voting.NodeReply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.bftws.rm.RmCounters;
import org.bftws.rm.Backoff;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A node that answers "retry later" (it holds too many exchanges, or the reply is not ready) is sent the message
 * again after the backoff, transparently: the call gets the node's later answer, and the client counts the fault.
 */
class TransmissionRetryLaterTest {

    private static final String ENVELOPE = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>";
    private static final String RETRY_LATER = ENVELOPE + "<s:Fault><faultcode xmlns:bftws='urn:bftws:wsrm:1'>"
            + "bftws:ReplyNotYetAvailable</faultcode><faultstring>holds at most 64 waiting exchanges</faultstring>"
            + "</s:Fault></s:Body></s:Envelope>";
    private static final String ANSWER = ENVELOPE + "<e:echoResponse xmlns:e='urn:x'>done</e:echoResponse>"
            + "</s:Body></s:Envelope>";

    @Test
    void aRetryLaterFaultIsRetransmittedAfterTheBackoffAndCountedAndTheLaterAnswerIsTheReply() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", x -> answer(x, requests.incrementAndGet() <= 2 ? 500 : 200,
                requests.get() <= 2 ? RETRY_LATER : ANSWER));
        node.start();
        RmCounters counters = new RmCounters();
        FirstReply collector = new FirstReply();
        try (CloseableHttpClient http = HttpClients.createDefault()) {
            URI uri = URI.create("http://127.0.0.1:" + node.getAddress().getPort() + "/axis2/services/Echo");
            Transmission t = new Transmission(http, uri, new Transmission.Message(
                    ANSWER.getBytes(StandardCharsets.UTF_8), "text/xml; charset=UTF-8", "\"\"", null, 1),
                    new Transmission.Schedule(Backoff.of(Duration.ofMillis(50), 5), 5_000, false), collector,
                    counters);
            t.run();
            NodeReply reply = collector.await(5, TimeUnit.SECONDS);
            assertNotNull(reply, collector.whyUndecided());
            assertEquals(200, reply.status());
            assertTrue(new String(reply.body(), StandardCharsets.UTF_8).contains("done"));
            assertEquals(3, requests.get(), "sent twice more after two retry-later faults");
            assertEquals(2, counters.retryLaterReceived.get());
            assertEquals(2, counters.retransmissions.get());
        } finally {
            node.stop(0);
        }
    }

    @Test
    void retryLaterAnswersDoNotUseUpTheRetransmissionLimitOnlyTheCallsWholeWait() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", x -> {
            boolean later = requests.incrementAndGet() <= 6;
            answer(x, later ? 500 : 200, later ? RETRY_LATER : ANSWER);
        });
        node.start();
        RmCounters counters = new RmCounters();
        FirstReply collector = new FirstReply();
        try (CloseableHttpClient http = HttpClients.createDefault()) {
            // two retransmissions allowed; the node says "retry later" six times, then answers
            Transmission.Schedule schedule = new Transmission.Schedule(Backoff.of(Duration.ofMillis(10), 2), 1_000,
                    false);
            new Transmission(http, uri(node), message(), schedule, collector, counters).run();
            NodeReply reply = collector.await(5, TimeUnit.SECONDS);
            assertNotNull(reply, collector.whyUndecided());
            assertEquals(200, reply.status());
            assertEquals(7, requests.get());
            assertEquals(6, counters.retryLaterReceived.get());
        } finally {
            node.stop(0);
        }
    }

    @Test
    void aNodeThatOnlyEverSaysRetryLaterIsGivenUpWhenTheCallsWholeWaitIsOver() throws Exception {
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/", x -> answer(x, 500, RETRY_LATER));
        node.start();
        FirstReply collector = new FirstReply();
        try (CloseableHttpClient http = HttpClients.createDefault()) {
            Transmission.Schedule schedule = new Transmission.Schedule(Backoff.of(Duration.ofMillis(10), 1), 200,
                    false);
            long start = System.nanoTime();
            new Transmission(http, uri(node), message(), schedule, collector, new RmCounters()).run();
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(null, collector.await(1, TimeUnit.SECONDS));
            assertTrue(collector.whyUndecided().contains("ReplyNotYetAvailable"), collector.whyUndecided());
            assertTrue(tookMillis >= schedule.totalMillis(), "asked until the call's wait was over: " + tookMillis
                    + " ms of " + schedule.totalMillis());
        } finally {
            node.stop(0);
        }
    }

    private static URI uri(HttpServer node) {
        return URI.create("http://127.0.0.1:" + node.getAddress().getPort() + "/axis2/services/Echo");
    }

    private static Transmission.Message message() {
        return new Transmission.Message(ANSWER.getBytes(StandardCharsets.UTF_8), "text/xml; charset=UTF-8", "\"\"",
                null, 1);
    }

    private static void answer(HttpExchange x, int status, String body) throws IOException {
        x.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/xml; charset=UTF-8");
        x.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(bytes);
        }
    }
}
