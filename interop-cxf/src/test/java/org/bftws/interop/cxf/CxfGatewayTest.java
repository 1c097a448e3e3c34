package org.bftws.interop.cxf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.xml.namespace.QName;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Service;
import javax.xml.ws.soap.SOAPBinding;
import javax.xml.ws.WebServiceException;

import org.apache.cxf.binding.soap.SoapFault;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmodified Apache CXF JAX-WS client, without WS-RM, WS-Addressing or WS-Security, calls a four-replica echo group
 * (replica3 returning wrong, authentic replies) through the bftws voting gateway: the client is made from the WSDL
 * the gateway serves, so it calls the address in that WSDL, and gets only answers f+1 replicas agreed on.
 */
class CxfGatewayTest {

    private static final QName SERVICE = new QName(Append.NS, "EchoService");
    private static final QName PORT = new QName(Append.NS, "EchoServiceHttpSoap11Endpoint");

    @TempDir
    static Path dir;

    private static ForkedGateway gateway;

    @BeforeAll
    static void start() throws Exception {
        gateway = new ForkedGateway(dir);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    /** A port made from the gateway's ?wsdl, as a generated client would be: its address is the WSDL's. */
    private static EchoPort fromWsdl() throws Exception {
        Service service = Service.create(new URL(gateway.endpoint("EchoService") + "?wsdl"), SERVICE);
        return service.getPort(PORT, EchoPort.class);
    }

    @Test
    void aClientMadeFromTheGatewaysWsdlCallsTheGatewayAndGetsTheGroupsAnswer() throws Exception {
        EchoPort port = fromWsdl();
        assertEquals(gateway.endpoint("EchoService"),
                ((BindingProvider) port).getRequestContext().get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY));
        AppendResponse r = port.append(new Append("from-wsdl"));
        assertTrue(r.count >= 1);
        assertEquals(64, r.digest.length(), r.digest);
        ((java.io.Closeable) port).close();
    }

    @Test
    void eightConcurrentCallersEachGetCorrectAnswersAndEveryCallIsExecutedOnce() throws Exception {
        int threads = 8;
        int calls = 10;
        int wrongBefore = gateway.wrongReplies();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<List<AppendResponse>>> done = new ArrayList<>();
        try {
            for (int t = 0; t < threads; t++) {
                int caller = t;
                done.add(pool.submit(() -> {
                    EchoPort port = fromWsdl();
                    List<AppendResponse> answers = new ArrayList<>();
                    for (int i = 0; i < calls; i++) {
                        answers.add(port.append(new Append("cxf-" + caller + "-" + i)));
                    }
                    ((java.io.Closeable) port).close();
                    return answers;
                }));
            }
            TreeSet<Integer> counts = new TreeSet<>();
            for (Future<List<AppendResponse>> f : done) {
                for (AppendResponse r : f.get()) {
                    assertFalse(r.digest.startsWith("WRONG"), "a wrong reply reached the caller: " + r.digest);
                    assertEquals(64, r.digest.length(), r.digest);
                    counts.add(r.count);
                }
            }
            assertEquals(threads * calls, counts.size(), "every count once: each append executed once " + counts);
            assertEquals(counts.first() + threads * calls - 1, counts.last(), counts.toString());
        } finally {
            pool.shutdownNow();
        }
        assertTrue(gateway.wrongReplies() > wrongBefore, "replica3 did return wrong replies meanwhile");
    }

    @Test
    void aSoap12ClientIsAnsweredInSoap12() {
        JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
        factory.setServiceClass(EchoPort.class);
        factory.setAddress(gateway.endpoint("EchoService"));
        factory.setBindingId(SOAPBinding.SOAP12HTTP_BINDING);
        EchoPort port = (EchoPort) factory.create();
        AppendResponse r = port.append(new Append("soap12"));
        assertEquals(64, r.digest.length(), r.digest);
    }

    /**
     * CXF reads the fault as its SoapFault (the replicas' code and reason) but reports it as a WebServiceException
     * around it, not as a SOAPFaultException: its SAAJ mapping does not take this Axis2 fault (which has an
     * empty {@code detail}; why SAAJ refuses it was not investigated).
     */
    @Test
    void aFaultTheReplicasDecidedReachesTheClientAsThatSoapFault() throws Exception {
        EchoPort port = fromWsdl();
        WebServiceException e = assertThrows(WebServiceException.class, () -> port.append(new Append(null)));
        assertTrue(e.getCause() instanceof SoapFault, String.valueOf(e.getCause()));
        assertTrue(e.getCause().getMessage().contains("append needs a {" + Append.NS + "}value child"),
                e.getMessage());
    }
}
