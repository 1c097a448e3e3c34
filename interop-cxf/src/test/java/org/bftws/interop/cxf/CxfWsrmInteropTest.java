package org.bftws.interop.cxf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.ws.addressing.WSAddressingFeature;
import org.apache.cxf.ws.rm.ManagedRMEndpoint;
import org.apache.cxf.ws.rm.RM11Constants;
import org.apache.cxf.ws.rm.RMManager;
import org.apache.cxf.ws.rm.feature.RMFeature;
import org.apache.cxf.ws.rm.manager.SequenceTerminationPolicyType;
import org.apache.cxf.ws.rm.manager.SourcePolicyType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmodified Apache CXF WS-RM client, configured for WS-RM 1.1 over WS-Addressing 1.0, calls the echo sample on
 * a bftws node in WS-RM-only mode. The exchange is checked on the wire (a recording proxy) and in the node's own
 * sequence bookkeeping, not only by the echoed results.
 */
class CxfWsrmInteropTest {

    private static final String RM11 = "http://docs.oasis-open.org/ws-rx/wsrm/200702";

    @TempDir
    Path dir;

    @Test
    void aCxfClientCompletesCreateSequenceSequenceAcknowledgementsAndTerminateSequenceInTheWsrm11Namespace()
            throws Exception {
        try (ForkedNode node = new ForkedNode(dir);
             RecordingProxy proxy = new RecordingProxy(URI.create(node.endpoint("")))) {
            Bus bus = BusFactory.newInstance().createBus();
            BusFactory.setThreadDefaultBus(bus);
            try {
                EchoPort port = client(bus, proxy.address("/axis2/services/EchoService"));
                for (int i = 1; i <= 3; i++) {
                    AppendResponse r = port.append(new Append("cxf-" + i));
                    assertEquals(i, r.count);
                    assertEquals(64, r.digest.length());
                }
                // With an anonymous (synchronous) target CXF sends no TerminateSequence on its own; its management
                // API (the JMX operations an operator would use) closes and terminates the sequence.
                ManagedRMEndpoint managed = new ManagedRMEndpoint(bus.getExtension(RMManager.class)
                        .findReliableEndpoint(ClientProxy.getClient(port).getEndpoint().getService().getName()));
                String sid = managed.getCurrentSourceSequenceId();
                assertTrue(sid.startsWith("urn:uuid:"), sid);
                managed.closeSourceSequence(sid);
                managed.terminateSourceSequence(sid);
                ((java.io.Closeable) port).close();
            } finally {
                bus.shutdown(true);
                BusFactory.setThreadDefaultBus(null);
            }
            String stats = node.stats();
            assertEquals(3, node.counter(stats, "accepted"), stats);
            assertEquals(3, node.counter(stats, "delivered"), stats);
            assertEquals(1, node.counter(stats, "created"), stats);
            assertEquals(1, node.counter(stats, "terminated"), stats);
            assertEquals(0, node.counter(stats, "live"), stats);

            List<String> sent = proxy.requests;
            assertTrue(sent.stream().anyMatch(m -> m.contains("CreateSequence") && m.contains(RM11)), sent.toString());
            assertEquals(3, sent.stream().filter(m -> m.contains("echo/append<") && m.contains("Sequence")
                    && m.contains("MessageNumber")).count(), sent.toString());
            assertTrue(sent.stream().anyMatch(m -> m.contains("TerminateSequence")), sent.toString());
            assertTrue(proxy.responses.stream().anyMatch(m -> m.contains("CreateSequenceResponse")));
            assertTrue(proxy.responses.stream().filter(m -> m.contains("appendResponse"))
                    .allMatch(m -> m.contains("SequenceAcknowledgement") && m.contains("AcknowledgementRange")));
            assertTrue(sent.stream().anyMatch(m -> m.contains("CloseSequence")), sent.toString());
            assertTrue(proxy.responses.stream().anyMatch(m -> m.contains("CloseSequenceResponse")));
            assertTrue(proxy.responses.stream().anyMatch(m -> m.contains("TerminateSequenceResponse")));
        }
    }

    private static EchoPort client(Bus bus, String address) {
        RMFeature rm = new RMFeature();
        rm.setRMNamespace(RM11Constants.NAMESPACE_URI);  // WS-RM 1.1: CXF pairs it with WS-Addressing 1.0
        SourcePolicyType source = new SourcePolicyType();
        SequenceTerminationPolicyType termination = new SequenceTerminationPolicyType();
        termination.setTerminateOnShutdown(true);
        source.setSequenceTerminationPolicy(termination);
        rm.setSourcePolicy(source);
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setBus(bus);
        factory.setServiceClass(EchoPort.class);
        factory.setAddress(address);
        factory.getFeatures().add(new WSAddressingFeature());
        factory.getFeatures().add(rm);
        return (EchoPort) factory.create();
    }
}
