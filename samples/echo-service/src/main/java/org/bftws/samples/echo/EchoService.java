package org.bftws.samples.echo;

import java.util.Iterator;

import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMException;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.Parameter;

/**
 * The BFT-WS paper's echo benchmark service (section 4), with the state operations the paper requires of every
 * replicated service (section 3.2) and an order-dependent operation so tests can compare replica states.
 *
 * <p>Deployed with {@code RawXMLINOutMessageReceiver}: each public method receives the SOAP body's first element
 * and returns the response element; the method name is the operation name, hence {@code get_state}.
 *
 * <p>The size of the padding in the state is read once, on the first call, from the system property
 * {@value #STATE_ELEMENTS}, else from the service parameter of the same name in services.xml, else 0.
 */
public class EchoService {

    public static final String NS = "http://bftws.org/samples/echo";
    public static final String STATE_ELEMENTS = "echo.stateElements";
    static final String PREFIX = "e";

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(NS, PREFIX);

    private EchoState state;

    /** Returns the request's items, in order, under {@code echoResponse}. */
    public OMElement echo(OMElement request) throws AxisFault {
        expect(request, "echo");
        OMElement response = F.createOMElement("echoResponse", E);
        for (Iterator<OMElement> items = request.getChildElements(); items.hasNext(); ) {
            response.addChild(items.next().cloneOMElement());
        }
        return response;
    }

    /** Appends the request's {@code value} to the log; returns the new count and running digest. */
    public synchronized OMElement append(OMElement request) throws AxisFault {
        expect(request, "append");
        OMElement value = request.getFirstChildWithName(new QName(NS, "value"));
        if (value == null) {
            throw AxisFault.makeFault(new IllegalArgumentException("append needs a {" + NS + "}value child"));
        }
        state().append(value.getText());
        return summary("appendResponse");
    }

    /**
     * The whole state: log entries, running digest and padding. The {@code state} element streams itself when the
     * reply is written ({@link EchoStateSource}): a state of 10 MB is never built as a tree.
     */
    public synchronized OMElement get_state(OMElement request) throws AxisFault {
        expect(request, "get_state");
        OMElement response = F.createOMElement("get_stateResponse", E);
        response.addChild(F.createOMElement(new EchoStateSource(state()), "state", E));
        return response;
    }

    /**
     * Replaces the state with the one {@code get_state} returned (possibly on another replica). Read with a pull
     * parser ({@link EchoStateReader}), so the request is never built as a tree; a state whose digest does not match
     * its log is refused.
     */
    public synchronized OMElement set_state(OMElement request) throws AxisFault {
        expect(request, "set_state");
        try {
            EchoStateReader.Content c = EchoStateReader.read(request.getXMLStreamReaderWithoutCaching());
            state().replace(c.entries(), c.digest(), c.pads());
        } catch (XMLStreamException | IllegalArgumentException | OMException e) {
            throw AxisFault.makeFault(e);
        }
        return summary("set_stateResponse");
    }

    private OMElement summary(String name) {
        OMElement response = F.createOMElement(name, E);
        F.createOMElement("count", E, response).setText(Integer.toString(state.count()));
        F.createOMElement("digest", E, response).setText(state.digestHex());
        return response;
    }

    private EchoState state() {
        if (state == null) {
            state = new EchoState(configuredPadElements());
        }
        return state;
    }

    private static int configuredPadElements() {
        String value = System.getProperty(STATE_ELEMENTS);
        if (value == null) {
            MessageContext mc = MessageContext.getCurrentMessageContext();
            Parameter p = mc == null || mc.getAxisService() == null ? null
                    : mc.getAxisService().getParameter(STATE_ELEMENTS);
            value = p == null ? null : String.valueOf(p.getValue()).trim();
        }
        if (value == null || value.isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(STATE_ELEMENTS + " must be a whole number, not '" + value + "'", e);
        }
    }

    private static void expect(OMElement request, String name) throws AxisFault {
        if (request == null) {
            throw AxisFault.makeFault(new IllegalArgumentException("empty SOAP body: expected {" + NS + "}" + name));
        }
        if (!NS.equals(request.getNamespaceURI()) || !name.equals(request.getLocalName())) {
            throw AxisFault.makeFault(new IllegalArgumentException(
                    "expected {" + NS + "}" + name + " but got " + request.getQName()));
        }
    }
}
