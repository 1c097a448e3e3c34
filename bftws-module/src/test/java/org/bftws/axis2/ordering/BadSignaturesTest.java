package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoService;
import org.bftws.security.WsSecurity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Requests to a replicated service whose signatures do not hold get a SOAP fault that says why; nothing executes. */
class BadSignaturesTest {

    @TempDir
    Path dir;

    @Test
    void aTamperedOrUnsignedRequestToAReplicaIsRefusedWithAFaultAndNotExecuted() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"))) {
            ReplicasConfig config = ReplicasConfigReader.read(dir.resolve("replicas.xml"), KeyFileCheck.none());
            GroupConfig group = config.groupByService("EchoService").orElseThrow();
            String replica0 = group.node("replica0").serviceEndpoint().toString();
            String signed = serialise(WsSecurity.forParty(config, "client1", group).sign(appendEnvelope(replica0)));

            HttpResponse<String> tampered = post(replica0, signed.replace(">original<", ">tampered<"));
            assertEquals(500, tampered.statusCode());
            assertTrue(tampered.body().contains("tampered"), tampered.body());

            HttpResponse<String> unsigned = post(replica0, serialise(appendEnvelope(replica0)));
            assertEquals(500, unsigned.statusCode());
            assertTrue(unsigned.body().contains("unsigned"), unsigned.body());

            Thread.sleep(300);
            String state = g.state(0);
            assertTrue(state.equals("no state yet") || state.endsWith("/0"), "nothing was executed: " + state);
        }
    }

    private static SOAPEnvelope appendEnvelope(String to) {
        SOAPFactory f = OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope env = f.getDefaultEnvelope();
        var wsa = f.createOMNamespace("http://www.w3.org/2005/08/addressing", "wsa");
        env.getHeader().addHeaderBlock("To", wsa).setText(to);
        env.getHeader().addHeaderBlock("Action", wsa).setText(EchoService.NS + "/append");
        env.getHeader().addHeaderBlock("MessageID", wsa).setText("urn:uuid:" + java.util.UUID.randomUUID());
        var wsrm = f.createOMNamespace("http://docs.oasis-open.org/ws-rx/wsrm/200702", "wsrm");
        var seq = env.getHeader().addHeaderBlock("Sequence", wsrm);
        f.createOMElement("Identifier", wsrm, seq).setText("urn:uuid:00000000-0000-8000-8000-000000000001");
        f.createOMElement("MessageNumber", wsrm, seq).setText("1");
        var e = f.createOMNamespace(EchoService.NS, "e");
        var append = f.createOMElement("append", e, env.getBody());
        f.createOMElement("value", e, append).setText("original");
        return OMXMLBuilderFactory.createSOAPModelBuilder(
                new ByteArrayInputStream(env.toString().getBytes(StandardCharsets.UTF_8)), "UTF-8").getSOAPEnvelope();
    }

    private static String serialise(SOAPEnvelope env) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        env.serialize(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> post(String url, String body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "text/xml; charset=UTF-8")
                .header("SOAPAction", "\"" + EchoService.NS + "/append\"")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString());
    }
}
