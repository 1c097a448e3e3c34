package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bftws.server.gateway.Gateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The voting gateway with plain HTTP callers (what curl sends): four echo replicas in this JVM, replica3 signing wrong
 * echo and append replies, and a gateway as client1 on 127.0.0.1. Every test sees the correct answer, because the
 * gateway returns only what f+1 = 2 replicas returned identically.
 */
class GatewayTest {

    private static final String NS = "http://bftws.org/samples/echo";
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

    @TempDir
    static Path dir;

    private static EchoGroup group;
    private static Gateway gateway;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        group = new EchoGroup(dir, true);
        gateway = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 8, Map.of(),
                EchoGroup.clientRepository());
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (group != null) {
            group.close();
        }
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + gateway.address().getPort() + path;
    }

    private static HttpResponse<String> post(String path, String contentType, String soapAction, String body)
            throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(url(path))).timeout(Duration.ofSeconds(60))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body));
        if (soapAction != null) {
            r.header("SOAPAction", soapAction);
        }
        return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String soap11(String body) {
        return "<s:Envelope xmlns:s=\"" + SOAP11 + "\"><s:Body>" + body + "</s:Body></s:Envelope>";
    }

    private static String echo(String... items) {
        StringBuilder b = new StringBuilder("<e:echo xmlns:e=\"" + NS + "\">");
        for (String i : items) {
            b.append("<e:item>").append(i).append("</e:item>");
        }
        return b.append("</e:echo>").toString();
    }

    private static List<String> all(String regex, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void aPlainSoap11RequestGetsTheReplyF1ReplicasReturnedWithoutTheirHeaders() throws Exception {
        HttpResponse<String> r = post("/axis2/services/EchoService", "text/xml; charset=UTF-8",
                "\"" + NS + "/echo\"", soap11(echo("a", "b", "c")));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/xml"), r.headers().toString());
        assertEquals(List.of("a", "b", "c"), all("<[^>]*item>([^<]*)<", r.body()), r.body());
        assertTrue(r.body().contains(SOAP11) && r.body().contains("echoResponse"), r.body());
        assertFalse(r.body().contains("Header") || r.body().contains("Sequence"), r.body());
        assertTrue(group.wrong.rewroteAtLeast(1), "replica3 answered (wrongly) too");
    }

    @Test
    void aSoap12RequestIsForwardedAsSoap12WithTheActionOfItsContentType() throws Exception {
        String body = "<s:Envelope xmlns:s=\"" + SOAP12 + "\"><s:Body>" + echo("x", "y") + "</s:Body></s:Envelope>";
        HttpResponse<String> r = post("/axis2/services/EchoService",
                "application/soap+xml; charset=UTF-8; action=\"" + NS + "/echo\"", null, body);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/soap+xml"));
        assertTrue(r.body().contains(SOAP12), r.body());
        assertEquals(List.of("x", "y"), all("<[^>]*item>([^<]*)<", r.body()), r.body());
    }

    @Test
    void concurrentCallersAreEachExecutedExactlyOnceAndGetCorrectAnswers() throws Exception {
        int threads = 4;
        int calls = 5;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<String>>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int caller = t;
                done.add(pool.submit(() -> {
                    List<String> counts = new ArrayList<>();
                    for (int i = 0; i < calls; i++) {
                        HttpResponse<String> r = post("/axis2/services/EchoService", "text/xml",
                                NS + "/append", soap11("<e:append xmlns:e=\"" + NS + "\"><e:value>c" + caller + "-"
                                        + i + "</e:value></e:append>"));
                        assertEquals(200, r.statusCode(), r.body());
                        assertFalse(r.body().contains("WRONG"), r.body());
                        counts.add(all("<[^>]*count>([0-9]+)<", r.body()).get(0));
                    }
                    return counts;
                }));
            }
            Set<Integer> counts = new TreeSet<>();
            int answers = 0;
            for (Future<List<String>> f : done) {
                for (String c : f.get()) {
                    counts.add(Integer.parseInt(c));
                    answers++;
                }
            }
            assertEquals(threads * calls, answers);
            assertEquals(threads * calls, counts.size(), "each append executed once: " + counts);
            int first = counts.iterator().next();
            assertEquals(first + threads * calls - 1, ((TreeSet<Integer>) counts).last(), counts.toString());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFaultTheReplicasDecidedReachesTheCallerAsThatFault() throws Exception {
        HttpResponse<String> r = post("/axis2/services/EchoService", "text/xml", NS + "/append",
                soap11("<e:append xmlns:e=\"" + NS + "\"/>"));
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().contains("Fault") && r.body().contains("append needs a {" + NS + "}value child"), r.body());
        assertFalse(r.body().contains("bftws gateway"), "the service's own fault, not the gateway's: " + r.body());
    }

    @Test
    void aMalformedRequestGetsASenderFaultThatSaysWhatIsWrong() throws Exception {
        HttpResponse<String> notXml = post("/axis2/services/EchoService", "text/xml", NS + "/echo", "hello");
        assertEquals(500, notXml.statusCode());
        assertTrue(notXml.body().contains(":Client<") && notXml.body().contains("not a SOAP envelope"),
                notXml.body());
        HttpResponse<String> two = post("/axis2/services/EchoService", "text/xml", NS + "/echo",
                soap11(echo("a") + echo("b")));
        assertTrue(two.body().contains("exactly one element"), two.body());
        HttpResponse<String> json = post("/axis2/services/EchoService", "application/json", null, "{}");
        assertEquals(415, json.statusCode());
        assertTrue(json.body().contains("Content-Type text/xml (SOAP 1.1) or application/soap+xml"), json.body());
        HttpResponse<String> mixed = post("/axis2/services/EchoService", "text/xml", NS + "/echo",
                "<s:Envelope xmlns:s=\"" + SOAP12 + "\"><s:Body>" + echo("a") + "</s:Body></s:Envelope>");
        assertTrue(mixed.body().contains("must be sent as application/soap+xml"), mixed.body());
        HttpResponse<String> header = post("/axis2/services/EchoService", "text/xml", NS + "/echo",
                "<s:Envelope xmlns:s=\"" + SOAP11 + "\"><s:Header><x:Tx xmlns:x=\"urn:x\" s:mustUnderstand=\"1\"/>"
                        + "</s:Header><s:Body>" + echo("a") + "</s:Body></s:Envelope>");
        assertTrue(header.body().contains(":MustUnderstand<") && header.body().contains("{urn:x}Tx"),
                header.body());
        HttpResponse<String> noAction = post("/axis2/services/EchoService", "text/xml", null, soap11(echo("a")));
        assertTrue(noAction.body().contains("names no action") && noAction.body().contains("SOAPAction"),
                noAction.body());
        HttpResponse<String> nowhere = post("/axis2/services/Nowhere", "text/xml", NS + "/echo", soap11(echo("a")));
        assertEquals(404, nowhere.statusCode());
        assertTrue(nowhere.body().contains("this gateway serves /axis2/services/EchoService"), nowhere.body());
    }

    @Test
    void whenNoReplyIsDecidedTheFaultSaysWhatEachReplicaDid() throws Exception {
        HttpResponse<String> r = post("/axis2/services/GhostService", "text/xml", NS + "/echo", soap11(echo("a")));
        assertEquals(500, r.statusCode(), r.body());
        assertTrue(r.body().contains(":Server<") && r.body().contains("no reply decided"), r.body());
        assertTrue(r.body().contains("ghost0") && r.body().contains("ghost3"), r.body());
    }

    @Test
    void theWsdlIsTheServicesOwnWithTheGatewaysAddressInEveryPort() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url("/axis2/services/EchoService?wsdl")))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("EchoPortType") && r.body().contains(NS + "/append"), r.body());
        List<String> locations = all("location=\"([^\"]*)\"", r.body());
        assertFalse(locations.isEmpty(), r.body());
        assertEquals(Set.of(url("/axis2/services/EchoService")), Set.copyOf(locations), r.body());
        HttpResponse<String> ghost = HTTP.send(HttpRequest.newBuilder(URI.create(
                url("/axis2/services/GhostService?wsdl"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, ghost.statusCode());
        assertTrue(ghost.body().contains("--wsdl GhostService=FILE"), ghost.body());
    }

    @Test
    void aWsdlFileGivenForAGroupIsServedWithTheGatewaysAddressAndAFileThatIsNotWsdlIsRefusedAtStart()
            throws Exception {
        Path file = Path.of("..", "samples", "echo-service", "src", "main", "resources", "META-INF",
                "EchoService.wsdl");
        try (Gateway second = Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 1,
                Map.of("GhostService", file), EchoGroup.clientRepository())) {
            String base = "http://127.0.0.1:" + second.address().getPort() + "/axis2/services/GhostService";
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "?wsdl")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(List.of(base), all("location=\"([^\"]*)\"", r.body()), r.body());
        }
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Gateway.start(new InetSocketAddress("127.0.0.1", 0), group.replicasXml, "client1", 1,
                        Map.of("EchoService", group.replicasXml), EchoGroup.clientRepository()));
        assertTrue(e.getMessage().contains("--wsdl EchoService=") && e.getMessage().contains("not a WSDL 1.1"),
                e.getMessage());
    }
}
