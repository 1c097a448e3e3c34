package org.bftws.samples.echo;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
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

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(NS, "e");

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

    /** The whole state: log entries, running digest and padding. */
    public synchronized OMElement get_state(OMElement request) throws AxisFault {
        expect(request, "get_state");
        EchoState s = state();
        OMElement response = F.createOMElement("get_stateResponse", E);
        OMElement st = F.createOMElement("state", E, response);
        st.addAttribute("count", Integer.toString(s.count()), null);
        st.addAttribute("digest", s.digestHex(), null);
        for (String entry : s.log()) {
            F.createOMElement("entry", E, st).setText(entry);
        }
        for (int i = 0; i < s.padElements(); i++) {
            F.createOMElement("pad", E, st).setText(EchoState.PAD_TEXT);
        }
        return response;
    }

    /** Replaces the state with the one {@code get_state} returned (possibly on another replica). */
    public synchronized OMElement set_state(OMElement request) throws AxisFault {
        expect(request, "set_state");
        OMElement st = request.getFirstChildWithName(new QName(NS, "state"));
        if (st == null) {
            throw AxisFault.makeFault(new IllegalArgumentException("set_state needs a {" + NS + "}state child"));
        }
        List<String> entries = new ArrayList<>();
        int pads = 0;
        for (Iterator<OMElement> it = st.getChildElements(); it.hasNext(); ) {
            OMElement child = it.next();
            switch (child.getLocalName()) {
                case "entry" -> entries.add(child.getText());
                case "pad" -> pads++;
                default -> throw AxisFault.makeFault(new IllegalArgumentException(
                        "unexpected element " + child.getQName() + " in state"));
            }
        }
        String digest = st.getAttributeValue(new QName("digest"));
        if (digest == null) {
            throw AxisFault.makeFault(new IllegalArgumentException("state has no digest attribute"));
        }
        try {
            state().replace(entries, digest, pads);
        } catch (IllegalArgumentException e) {
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
