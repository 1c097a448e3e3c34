package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.AxisService;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The result an executing replica hands the PBFT core for a request (kept in the last-reply table, digested into
 * every checkpoint, and the body a reply is rebuilt from after a state transfer) is the reply's body element, taken
 * from the service's own tree while the reply is captured: the same bytes on every replica that executes the same
 * request, the same XML as the captured reply's body element (namespace declarations may stand elsewhere in the
 * start tag: all replicas of a group run the same version), and a fault still has no separate body element.
 */
class ExecutionResultTest {
    private static final Path PLAIN_AXIS2_XML = Path.of("src", "test", "resources", "axis2-plain.xml").toAbsolutePath();
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    @TempDir
    Path dir;

    @Test
    void theResultTakenFromTheTreeIsByteForByteTheBodyElementOfTheCapturedReply() throws Exception {
        RequestContexts contexts = node();
        for (int elements : new int[] {0, 1, 10, 100}) {
            ServiceDelivery.DeliveredReply delivered = new ServiceDelivery().deliverWithBodyElement(
                    contexts.ownRequest("echo", echoChildren(elements).iterator()));
            assertNotNull(delivered, "echo has a reply");
            assertTrue(!delivered.reply().fault(), "echo of " + elements + " elements succeeds");
            assertSameXml(StateOperations.bodyElementBytes(delivered.reply().envelope()), delivered.bodyElement());
        }
    }

    @Test
    void aRequestParsedFromAClientsBytesWithNamespacesDeclaredOnTheEnvelopeGivesTheSameBytesEitherWay() throws Exception {
        RequestContexts contexts = node();
        String envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:e=\""
                + EchoService.NS + "\" xmlns:x=\"urn:other\"><s:Body x:flag=\"1\"><e:echo>"
                + "<e:item x:n=\"1\">a &amp; b</e:item><x:extra xmlns:y=\"urn:y\" y:z=\"2\"><![CDATA[<c>]]></x:extra>"
                + "</e:echo></s:Body></s:Envelope>";
        byte[] bytes = envelope.getBytes(StandardCharsets.UTF_8);
        org.bftws.core.RequestId id = new org.bftws.core.RequestId("seq-1", 1);
        ServiceDelivery.DeliveredReply delivered = new ServiceDelivery().deliverWithBodyElement(contexts.fromBytes(id,
                bytes));
        assertNotNull(delivered);
        assertTrue(!delivered.reply().fault());
        assertSameXml(StateOperations.bodyElementBytes(delivered.reply().envelope()), delivered.bodyElement());

        RequestContexts otherReplica = node("other");
        ServiceDelivery.DeliveredReply there = new ServiceDelivery().deliverWithBodyElement(otherReplica.fromBytes(id,
                bytes));
        assertArrayEquals(delivered.bodyElement(), there.bodyElement(), "every replica hands its core the same bytes");
    }

    /** Equal once both are parsed and serialised alike: the same elements, attributes, namespaces and text. */
    private static void assertSameXml(byte[] expected, byte[] actual) throws Exception {
        assertNotNull(actual, "the body element was captured apart");
        assertArrayEquals(normalised(expected), normalised(actual), new String(actual, StandardCharsets.UTF_8));
    }

    private static byte[] normalised(byte[] xml) throws Exception {
        OMElement e = org.apache.axiom.om.OMXMLBuilderFactory.createOMBuilder(new java.io.ByteArrayInputStream(xml))
                .getDocumentElement();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        e.serialize(out);
        return out.toByteArray();
    }

    @Test
    void aFaultHasNoSeparateBodyElementAndKeepsItsWholeEnvelope() throws Exception {
        RequestContexts contexts = node();
        // set_state with something that is not the service's state: the service refuses it with a fault
        OMElement bogus = F.createOMElement("bogus", E);
        ServiceDelivery.DeliveredReply delivered = new ServiceDelivery().deliverWithBodyElement(
                contexts.ownRequest("set_state", List.of(bogus).iterator()));
        assertNotNull(delivered);
        assertTrue(delivered.reply().fault(), "the service refused the state");
        assertNull(delivered.bodyElement());
        assertTrue(new String(delivered.reply().envelope(), StandardCharsets.UTF_8).contains("Fault"));
    }

    private static List<OMElement> echoChildren(int elements) {
        List<OMElement> children = new ArrayList<>();
        for (int i = 0; i < elements; i++) {
            OMElement item = F.createOMElement("item", E);
            item.addAttribute("n", Integer.toString(i), null);
            item.setText("value & <" + i + ">");
            children.add(item);
        }
        return children;
    }

    private RequestContexts node() throws Exception {
        return node("node");
    }

    private RequestContexts node(String name) throws Exception {
        Path repo = EchoRepository.create(dir.resolve(name));
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), PLAIN_AXIS2_XML.toString());
        AxisService service = ctx.getAxisConfiguration().getService("EchoService");
        return new RequestContexts(ctx, service);
    }
}
