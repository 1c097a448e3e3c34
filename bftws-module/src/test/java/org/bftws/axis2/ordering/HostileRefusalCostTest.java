package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.security.RefusalAnswers;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.config.KeyFileCheck;
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
 * ("header removed"), each from a new connection as a hostile client's timed-out attempts are. Every one is refused:
 * answered with the constant unsigned fault while the address is within its refusal rate, else with an empty 429;
 * either way the replica closes that connection. The replica makes no WS-Security signature for any of them, and none
 * reaches the WS-RM layer or the core.
 *
 * <p>The group allows one answered refusal a second per address (a burst of two), so that the stream outruns the
 * rate on any machine: how many refusals were answered and how many closed unanswered are counted, never timed.
 */
class HostileRefusalCostTest {
    /** Requests of each kind: 80 refusals in all, which would have to take a second each to stay within the rate. */
    private static final int COPIES = 40;
    /** replicas.xml {@code <limits refusalsPerSecondPerAddress>} of this group: a burst of twice that. */
    private static final int RATE = 1;
    private static final String RM = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    @TempDir
    static Path dir;
    static BftTestGroup group;
    static URI replica1;

    @BeforeAll
    static void start() throws Exception {
        group = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s")
                + "\n<limits refusalsPerSecondPerAddress=\"" + RATE + "\"/>");
        replica1 = ReplicasConfigReader.read(group.replicasXml(), KeyFileCheck.none()).groupByService("EchoService")
                .orElseThrow().node("replica1").serviceEndpoint();
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

    /** The POST of {@code envelope} as HTTP/1.1 bytes, asking to keep the connection (HTTP/1.1's default). */
    private static byte[] post(String envelope) {
        byte[] body = envelope.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + replica1.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1:" + replica1.getPort() + "\r\n"
                + "Content-Type: text/xml; charset=UTF-8\r\nSOAPAction: \"" + EchoService.NS + "/append\"\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        byte[] head8 = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head8.length + body.length];
        System.arraycopy(head8, 0, all, 0, head8.length);
        System.arraycopy(body, 0, all, head8.length, body.length);
        return all;
    }

    private record Response(int status, Map<String, String> headers, byte[] body) {
    }

    private record Outcome(int answered, int closed) {
    }

    /**
     * Sends {@code copies} envelopes, each on a new connection that asks to be kept. Each answer must be the constant
     * fault for {@code reason} or an empty 429; after it the replica must have closed the connection: a second
     * request written on it gets no answer, only the end of the stream or a reset.
     */
    private static Outcome flood(int copies, Supplier<String> envelope, RefusalReason reason) throws Exception {
        byte[] constant = RefusalAnswers.envelope(true, reason);
        int answered = 0;
        int closed = 0;
        for (int i = 0; i < copies; i++) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), replica1.getPort())) {
                s.setSoTimeout(30_000);
                s.getOutputStream().write(post(envelope.get()));
                s.getOutputStream().flush();
                Response r = read(s.getInputStream());
                if (r.status() == 429) {
                    assertEquals(0, r.body().length, "over the rate: no answer");
                    closed++;
                } else {
                    assertEquals(500, r.status(), new String(r.body(), StandardCharsets.UTF_8));
                    assertArrayEquals(constant, r.body(),
                            "the constant unsigned fault: " + new String(r.body(), StandardCharsets.UTF_8));
                    answered++;
                }
                assertEquals("close", r.headers().getOrDefault("connection", ""),
                        "a refusal says it closes the connection: " + r.headers());
                assertClosed(s, envelope.get(), r.status());
            }
        }
        return new Outcome(answered, closed);
    }

    /** The connection {@code s} was closed by the replica: what is written on it next is never answered. */
    private static void assertClosed(Socket s, String envelope, int status) throws IOException {
        try {
            s.getOutputStream().write(post(envelope));
            s.getOutputStream().flush();
            int next = s.getInputStream().read();
            if (next >= 0) {
                fail("the connection stayed open after the " + status + " refusal: a second request on it was answered"
                        + " (" + (char) next + "...)");
            }
        } catch (SocketException reset) {
            // the replica closed it with the second request unread: a reset instead of an end of stream
        }
    }

    /** One HTTP/1.1 response: its status, its headers by lower-case name, its body (by Content-Length or chunked). */
    private static Response read(InputStream in) throws IOException {
        String status = line(in);
        assertTrue(status.startsWith("HTTP/1.1 "), "not an HTTP response: " + status);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).trim().toLowerCase(Locale.ROOT));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equals(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16); size > 0;
                 size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
                body.write(in.readNBytes(size));
                line(in);
            }
            while (!line(in).isEmpty()) {
                // trailers
            }
        } else {
            body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
        }
        return new Response(Integer.parseInt(status.substring(9, 12)), headers, body.toByteArray());
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection ended inside a response: " + b);
            }
            b.append((char) c);
        }
        return b.toString().trim();
    }

    @Test
    void refusalsBeyondTheAddressRateAreClosedUnansweredAndNoRefusalReachesTheCore() throws Exception {
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

        long start = System.nanoTime(); // before the first request is sent: every refusal is judged after it
        Outcome forged = flood(COPIES, () -> request(forgedAuthenticator(random)), RefusalReason.MAC_MISMATCH);
        Outcome removed = flood(COPIES, () -> request(""), RefusalReason.UNSIGNED);
        double seconds = (System.nanoTime() - start) / 1e9; // after the last answer was read

        assertEquals(mismatchesBefore + COPIES, refusals.count(RefusalReason.MAC_MISMATCH));
        assertEquals(unsignedBefore + COPIES, refusals.count(RefusalReason.UNSIGNED));
        int answered = forged.answered() + removed.answered();
        int closed = forged.closed() + removed.closed();
        assertEquals(2 * COPIES, answered + closed);
        assertEquals(answered, refusals.answeredUnsignedCount() - answeredBefore, "every answer counted");
        assertEquals(closed, refusals.closedOverRateCount() - closedBefore, "every unanswered close counted");
        // one address, whose bucket is full at the first refusal: a burst of twice the rate is answered...
        String seen = answered + " answered, " + closed + " closed unanswered in " + seconds + " s";
        assertTrue(forged.answered() >= 2 * RATE, "the burst is answered: " + seen);
        // ... then at most the rate: what the bucket held plus what it refilled between the first and the last
        assertTrue(answered <= 2 * RATE + RATE * seconds, seen);
        // 80 refusals would have to take a second each to stay within that: the rest were closed, and counted
        assertTrue(closed > 0, seen);

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
