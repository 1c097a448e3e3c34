package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.security.RefusalAnswers;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.LimitsConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoService;
import org.bftws.security.RefusalCounter;
import org.bftws.security.RefusalReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a request that fails authentication costs a replica of a {@code mac} group, over real HTTP (issue 34, M1): a
 * stream of requests whose request authenticator does not verify, and of requests with no authenticator at all
 * ("header removed"), each from a new connection as a hostile client's timed-out attempts are. Every one is refused
 * with the constant unsigned fault, or, beyond the address's refusal rate, closed without an answer; the replica
 * makes no WS-Security signature for any of them, and none reaches the WS-RM layer or the core.
 */
class HostileRefusalCostTest {
    private static final int COPIES = 150;
    private static final String RM = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    @TempDir
    static Path dir;
    static BftTestGroup group;
    static HttpClient http;
    static String replica1;

    @BeforeAll
    static void start() throws Exception {
        group = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"));
        replica1 = ReplicasConfigReader.read(group.replicasXml(), KeyFileCheck.none()).groupByService("EchoService")
                .orElseThrow().node("replica1").serviceEndpoint().toString();
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() throws Exception {
        group.close();
    }

    /** An append to replica1 in a WS-RM sequence, with {@code authenticator} (may be empty) among its headers. */
    private static String request(String authenticator) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\" xmlns:wsrm=\"" + RM + "\"><soapenv:Header>"
                + "<wsa:To>" + replica1 + "</wsa:To><wsa:Action>" + EchoService.NS + "/append</wsa:Action>"
                + "<wsa:MessageID>urn:uuid:" + UUID.randomUUID() + "</wsa:MessageID>"
                + "<wsrm:Sequence><wsrm:Identifier>urn:uuid:" + UUID.randomUUID() + "</wsrm:Identifier>"
                + "<wsrm:MessageNumber>1</wsrm:MessageNumber></wsrm:Sequence>" + authenticator
                + "</soapenv:Header><soapenv:Body><e:append xmlns:e=\"" + EchoService.NS + "\"><e:value>hostile"
                + "</e:value></e:append></soapenv:Body></soapenv:Envelope>";
    }

    /** client1's request authenticator with every entry replaced by other bytes of the same length (issue 34). */
    private static String forgedAuthenticator(Random random) {
        StringBuilder b = new StringBuilder("<mac:RequestAuthenticator xmlns:mac=\"urn:bftws:mac:1\""
                + " soapenv:mustUnderstand=\"1\" from=\"client1\">");
        for (int i = 0; i < 4; i++) {
            byte[] mac = new byte[32];
            random.nextBytes(mac);
            b.append("<mac:Entry to=\"replica").append(i).append("\">")
                    .append(Base64.getEncoder().encodeToString(mac)).append("</mac:Entry>");
        }
        return b.append("</mac:RequestAuthenticator>").toString();
    }

    private static HttpResponse<byte[]> post(String envelope) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(replica1)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + EchoService.NS + "/append\"")
                .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return http.send(r, HttpResponse.BodyHandlers.ofByteArray());
    }

    private record Outcome(int answered, int closed) {
    }

    /** Sends {@code copies} envelopes; each answer must be the constant fault for {@code reason} or an empty 429. */
    private static Outcome flood(int copies, java.util.function.Supplier<String> envelope, RefusalReason reason)
            throws Exception {
        byte[] constant = RefusalAnswers.envelope(true, reason);
        int answered = 0;
        int closed = 0;
        for (int i = 0; i < copies; i++) {
            HttpResponse<byte[]> r = post(envelope.get());
            if (r.statusCode() == 429) {
                assertEquals(0, r.body().length, "over the rate: no answer");
                closed++;
            } else {
                assertEquals(500, r.statusCode(), new String(r.body()));
                assertArrayEquals(constant, r.body(), "the constant unsigned fault: " + new String(r.body()));
                answered++;
            }
            assertEquals("close", r.headers().firstValue("Connection").orElse("").toLowerCase(),
                    "the connection is closed after a refusal");
        }
        return new Outcome(answered, closed);
    }

    @Test
    void forgedAndMissingAuthenticatorsAreRefusedUnsignedWithinTheAddressRateAndNeverReachTheCore() throws Exception {
        BftwsNode node = group.node(1);
        SecurityRuntime security = SecurityRuntime.of(group.context(1));
        RefusalCounter refusals = security.refusals();
        long signaturesBefore = security.signaturesMade();
        long mismatchesBefore = refusals.count(RefusalReason.MAC_MISMATCH);
        long unsignedBefore = refusals.count(RefusalReason.UNSIGNED);
        long answeredBefore = refusals.answeredUnsignedCount();
        long closedBefore = refusals.closedOverRateCount();
        long acceptedBefore = node.counters().accepted.get();
        long sequencesBefore = node.counters().sequencesCreated.get();
        Map<String, Long> coreBefore = node.replica().counters();
        Random random = new Random(34);

        long start = System.nanoTime();
        Outcome forged = flood(COPIES, () -> request(forgedAuthenticator(random)), RefusalReason.MAC_MISMATCH);
        Outcome removed = flood(COPIES, () -> request(""), RefusalReason.UNSIGNED);
        double seconds = (System.nanoTime() - start) / 1e9;

        assertEquals(mismatchesBefore + COPIES, refusals.count(RefusalReason.MAC_MISMATCH));
        assertEquals(unsignedBefore + COPIES, refusals.count(RefusalReason.UNSIGNED));
        int answered = forged.answered() + removed.answered();
        int closed = forged.closed() + removed.closed();
        assertEquals(answered, refusals.answeredUnsignedCount() - answeredBefore, "every answer counted");
        assertEquals(closed, refusals.closedOverRateCount() - closedBefore, "every unanswered close counted");
        // one address: a burst of twice the rate, then the rate
        int rate = LimitsConfig.defaults().refusalsPerSecondPerAddress();
        assertTrue(answered >= 2 * rate, answered + " answered, " + closed + " closed");
        assertTrue(answered <= 2 * rate + rate * seconds + 1, answered + " answered in " + seconds + " s");

        assertEquals(signaturesBefore, security.signaturesMade(), "no WS-Security signature for any refusal");
        assertEquals(0, node.destination().heldExchanges(), "no exchange held");
        assertEquals(0, node.destination().pending().size(), "nothing pending");
        assertEquals(acceptedBefore, node.counters().accepted.get(), "nothing reached the WS-RM layer");
        assertEquals(sequencesBefore, node.counters().sequencesCreated.get(), "no sequence adopted");
        Map<String, Long> coreAfter = node.replica().counters();
        for (String input : new String[] {"dropped inputs", "requests executed"}) {
            assertEquals(coreBefore.getOrDefault(input, 0L), coreAfter.getOrDefault(input, 0L), input);
        }
    }
}
