package org.bftws.samples.echo;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.Parameter;

/**
 * The middle tier of the paper's 3-tier echo (section 4.1.2): {@code echo} relays the request to the backend echo
 * group and answers only with the backend's reply. Replicated with BFT-WS, the call it makes is a nested call of its
 * group: every replica makes it alike, on the group's virtual sequence, and the backend orders it once p+1 replicas'
 * copies agree (paper 3.4). The service itself is plain Axis2 code: it calls the backend's group endpoint through an
 * ordinary {@link ServiceClient} on the node's own engine, where the bftws module does the rest.
 *
 * <p>The backend's group endpoint is the system property {@value #BACKEND}, else the service parameter of that name.
 * The state (for checkpoints) is the number of relayed requests.
 */
public class EchoRelayService {

    public static final String BACKEND = "echo.backend";
    static final String ECHO_ACTION = "http://bftws.org/samples/echo/echo";

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, EchoService.PREFIX);

    private ServiceClient backend;
    private long relayed;

    /** Relays {@code echo} to the backend group and returns its {@code echoResponse}. */
    public synchronized OMElement echo(OMElement request) throws AxisFault {
        if (request == null || !EchoService.NS.equals(request.getNamespaceURI())
                || !"echo".equals(request.getLocalName())) {
            throw AxisFault.makeFault(new IllegalArgumentException("expected {" + EchoService.NS + "}echo but got "
                    + (request == null ? "an empty body" : request.getQName())));
        }
        OMElement reply = backend().sendReceive(request.cloneOMElement());
        OMElement copy = reply.cloneOMElement();
        relayed++;
        return copy;
    }

    public synchronized OMElement get_state(OMElement request) {
        OMElement response = F.createOMElement("get_stateResponse", E);
        F.createOMElement("relayed", E, response).setText(Long.toString(relayed));
        return response;
    }

    public synchronized OMElement set_state(OMElement request) throws AxisFault {
        OMElement count = request.getFirstChildWithName(new QName(EchoService.NS, "relayed"));
        try {
            relayed = Long.parseLong(count.getText().trim());
        } catch (RuntimeException e) {
            throw AxisFault.makeFault(new IllegalArgumentException("set_state needs a {" + EchoService.NS
                    + "}relayed count", e));
        }
        return F.createOMElement("set_stateResponse", E);
    }

    private ServiceClient backend() throws AxisFault {
        if (backend == null) {
            MessageContext current = MessageContext.getCurrentMessageContext();
            if (current == null) {
                throw new AxisFault("the echo relay runs only inside Axis2 (no current message context)");
            }
            String address = backendAddress(current);
            ServiceClient client = new ServiceClient(current.getConfigurationContext(), null);
            Options o = new Options();
            o.setTo(new EndpointReference(address));
            o.setAction(ECHO_ACTION);
            o.setTimeOutInMilliSeconds(120_000);
            client.setOptions(o);
            backend = client;
        }
        return backend;
    }

    private static String backendAddress(MessageContext mc) throws AxisFault {
        String value = System.getProperty(BACKEND);
        if (value == null || value.isBlank()) {
            Parameter p = mc.getAxisService() == null ? null : mc.getAxisService().getParameter(BACKEND);
            value = p == null ? null : String.valueOf(p.getValue()).trim();
        }
        if (value == null || value.isBlank()) {
            throw new AxisFault("the echo relay has no backend: set the service parameter or system property "
                    + BACKEND + " to the backend group's endpoint");
        }
        return value;
    }
}
