package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.samples.echo.EchoService;

/** Raw WS-RM requests on a chosen sequence and number, posted straight to a replica (a replay, a late message). */
final class RawSequenceRequests {

    private RawSequenceRequests() {
    }

    static org.bftws.ordering.TotalOrderManager manager(ConfigurationContext replica) {
        return BftwsNode.of(replica).replica().manager();
    }

    /** An echo append numbered {@code n} on {@code sequence}, unsigned (profile none). */
    static String append(String to, String sequence, long n, String value) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>" + to + "</wsa:To><wsa:MessageID>urn:uuid:" + java.util.UUID.randomUUID()
                + "</wsa:MessageID><wsa:Action>" + EchoService.NS + "/append</wsa:Action>"
                + "<wsrm:Sequence soapenv:mustUnderstand=\"1\"><wsrm:Identifier>" + sequence + "</wsrm:Identifier>"
                + "<wsrm:MessageNumber>" + n + "</wsrm:MessageNumber></wsrm:Sequence></soapenv:Header><soapenv:Body>"
                + "<e:append xmlns:e=\"" + EchoService.NS + "\"><e:value>" + value + "</e:value></e:append>"
                + "</soapenv:Body></soapenv:Envelope>";
    }

    static HttpResponse<String> post(String endpoint, String envelope) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint))
                .header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + EchoService.NS + "/append\"")
                .timeout(java.time.Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Polls {@code condition} for up to 10 s; the caller asserts it afterwards. */
    static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
    }
}
