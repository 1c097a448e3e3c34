package org.bftws.axis2.bft;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.ReplyCache.CachedReply;

/**
 * Checkpoints and state transfer through the service's own operations (paper 3.2 and 3.3.1.8). The convention:
 * the state is what {@code get_state} returns inside its response element; {@code set_state} receives the same
 * elements inside its request element. The bytes the core digests are that response element serialised: the same
 * service code on every correct replica produces the same element, hence the same bytes.
 */
final class StateOperations {

    private final RequestContexts contexts;
    private final ServiceDelivery delivery;

    StateOperations(RequestContexts contexts, ServiceDelivery delivery) {
        this.contexts = contexts;
        this.delivery = delivery;
    }

    /** Delivers get_state and returns the serialised response element. */
    byte[] getState() throws AxisFault {
        MessageContext mc = contexts.ownRequest("get_state", null);
        CachedReply reply = delivery.deliver(mc);
        if (reply == null || reply.fault()) {
            throw new AxisFault("bftws: get_state of " + contexts.service().getName() + " failed: "
                    + (reply == null ? "no reply" : new String(reply.envelope(), java.nio.charset.StandardCharsets.UTF_8)));
        }
        return bodyElementBytes(reply.envelope());
    }

    /** Delivers set_state with the elements of a state {@link #getState} returned (on this or another replica). */
    void setState(byte[] state) throws AxisFault {
        OMElement response = OMXMLBuilderFactory.createOMBuilder(new ByteArrayInputStream(state)).getDocumentElement();
        response.build();
        List<OMElement> children = new ArrayList<>();
        for (Iterator<OMElement> it = response.getChildElements(); it.hasNext(); ) {
            children.add(it.next());
        }
        for (OMElement c : children) {
            c.detach();
        }
        CachedReply reply = delivery.deliver(contexts.ownRequest("set_state", children.iterator()));
        if (reply != null && reply.fault()) {
            throw new AxisFault("bftws: set_state of " + contexts.service().getName() + " refused the state: "
                    + new String(reply.envelope(), java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** The first element of a serialised envelope's body, serialised on its own (deterministic for equal trees). */
    static byte[] bodyElementBytes(byte[] envelopeBytes) throws AxisFault {
        SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(envelopeBytes), null)
                .getSOAPEnvelope();
        OMElement first = envelope.getBody().getFirstElement();
        if (first == null) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(envelopeBytes.length);
        try {
            first.serialize(out);
        } catch (javax.xml.stream.XMLStreamException e) {
            throw AxisFault.makeFault(e);
        }
        return out.toByteArray();
    }
}
