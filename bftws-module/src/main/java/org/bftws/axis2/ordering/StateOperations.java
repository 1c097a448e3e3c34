package org.bftws.axis2.ordering;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMException;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAP11Constants;
import org.apache.axiom.soap.SOAP12Constants;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.ReplyCache.CachedReply;

/**
 * Checkpoints and state transfer through the service's own operations (paper 3.2 and 3.3.1.8). The convention:
 * the state is what {@code get_state} returns inside its response element; {@code set_state} receives the same
 * elements inside its request element. The bytes the core digests are that response element serialised: the same
 * service code on every correct replica produces the same element, hence the same bytes.
 *
 * <p>Both directions avoid holding the state as a tree the replica made: {@code get_state}'s response element is
 * serialised once, straight from what the service returned (a service may return a streaming element,
 * as the echo sample does), and {@code set_state} gets the transferred bytes as an element parsed lazily, so a
 * service that reads its request with a pull parser never has a tree of the state built at all.
 */
final class StateOperations {

    private final RequestContexts contexts;
    private final ServiceDelivery delivery;
    /** The size of the last state taken: states change little between checkpoints. */
    private int lastStateBytes;

    StateOperations(RequestContexts contexts, ServiceDelivery delivery) {
        this.contexts = contexts;
        this.delivery = delivery;
    }

    /**
     * Whether {@code mc} is a request for the service's {@code set_state}. It replaces the whole state: only state
     * transfer may deliver it, never a client (a client's get_state is an ordered read, and allowed).
     */
    static boolean isSetState(MessageContext mc) {
        return mc.getAxisOperation() != null && "set_state".equals(mc.getAxisOperation().getName().getLocalPart());
    }

    /** The fault a client's set_state gets, the same on every correct replica (Client in 1.1, Sender in 1.2). */
    static AxisFault clientSetStateRefused(MessageContext mc) {
        QName code = mc.isSOAP11() ? new QName(SOAP11Constants.SOAP_ENVELOPE_NAMESPACE_URI, "Client")
                : new QName(SOAP12Constants.SOAP_ENVELOPE_NAMESPACE_URI, "Sender");
        return new AxisFault(code, "bftws: set_state belongs to the replicas' state transfer; a client may not call it",
                null);
    }

    /** Delivers get_state and returns its response element, serialised. */
    byte[] getState() throws AxisFault {
        CachedReply reply = delivery.deliverForBodyElement(contexts.ownRequest("get_state", null), lastStateBytes);
        if (reply == null || reply.fault()) {
            throw new AxisFault("bftws: get_state of " + contexts.service().getName() + " failed: "
                    + (reply == null ? "no reply" : faultReason(reply.envelope())));
        }
        lastStateBytes = reply.envelope().length;
        return reply.envelope();
    }

    /**
     * Delivers set_state with the elements of a state {@link #getState} returned (on this or another replica): the
     * state's root element, renamed to set_state's input element, with its children (and namespace declarations and
     * attributes) as they are in the bytes, parsed only as the service reads them. When set_state's input element
     * holds exactly one element (its schema says so: a POJO's {@code set_state(String state)}, whose schema Axis2
     * generates) and the state's first element has another local name (a POJO's get_state wraps its result in
     * {@code return}), that element is renamed to it too, so a POJO's state round-trips without the user matching
     * element names.
     */
    void setState(byte[] state) throws AxisFault {
        QName parameter = onlyParameter("set_state");
        CachedReply reply = delivery.deliver(contexts.ownRequestWithBody("set_state", (factory, name) -> {
            OMElement request = lazyRoot(state);
            request.setLocalName(name.getLocalPart());
            request.setNamespace(factory.createOMNamespace(name.getNamespaceURI(),
                    name.getPrefix().isEmpty() ? null : name.getPrefix()));
            OMElement content = parameter == null ? null : request.getFirstElement();
            if (content != null && !content.getLocalName().equals(parameter.getLocalPart())) {
                // a POJO's get_state wraps its result in <return>, its set_state(x) reads <x>: one becomes the other
                content.setLocalName(parameter.getLocalPart());
                content.setNamespace(parameter.getNamespaceURI().isEmpty() ? null
                        : factory.createOMNamespace(parameter.getNamespaceURI(), null));
            }
            return request;
        }));
        if (reply != null && reply.fault()) {
            throw new AxisFault("bftws: set_state of " + contexts.service().getName() + " refused the state: "
                    + faultReason(reply.envelope()));
        }
    }

    /** A fault reply's reason (faultstring, or SOAP 1.2's Reason text); the envelope itself if it has none. */
    static String faultReason(byte[] envelopeBytes) {
        try {
            SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(
                    new ByteArrayInputStream(envelopeBytes), null).getSOAPEnvelope();
            org.apache.axiom.soap.SOAPFault fault = envelope.getBody().getFault();
            String reason = fault == null || fault.getReason() == null ? null : fault.getReason().getText();
            if (reason != null && !reason.isBlank()) {
                return reason.strip();
            }
        } catch (RuntimeException e) {
            // not a SOAP envelope (AXIOM's OMException among others): said as it is below
        }
        return new String(envelopeBytes, StandardCharsets.UTF_8);
    }

    /**
     * The one element {@code operation}'s input element holds, when the operation binds its parameters by name (an
     * RPC receiver: a POJO) and the service's schema says so: a sequence of exactly one element (a POJO's
     * one-parameter method, as Axis2 generates its schema, or a WSDL's such element); null otherwise (the state's
     * content then goes in as it is).
     */
    QName onlyParameter(String operation) {
        org.apache.axis2.description.AxisOperation op = contexts.service().getOperation(new QName(operation));
        if (op == null || !bindsParametersByName(op.getMessageReceiver())) {
            // a raw XML (or any other) receiver hands the service the element as it is: nothing to rename, and the
            // schema Axis2 made up for it by reflection (an OMElement parameter) says nothing about the state
            return null;
        }
        org.apache.axis2.description.AxisMessage in =
                op.getMessage(org.apache.axis2.wsdl.WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        org.apache.ws.commons.schema.XmlSchemaElement element = in == null ? null : in.getSchemaElement();
        if (element == null
                || !(element.getSchemaType() instanceof org.apache.ws.commons.schema.XmlSchemaComplexType type)
                || !(type.getParticle() instanceof org.apache.ws.commons.schema.XmlSchemaSequence sequence)
                || sequence.getItems().size() != 1
                || !(sequence.getItems().get(0) instanceof org.apache.ws.commons.schema.XmlSchemaElement only)) {
            return null;
        }
        QName name = only.getWireName();
        return name == null || name.getLocalPart() == null ? null : name;
    }

    /** Axis2's RPC receivers (POJO services) bind a method's parameters to the request's elements by name. */
    private static boolean bindsParametersByName(org.apache.axis2.engine.MessageReceiver receiver) {
        return receiver != null && receiver.getClass().getName().startsWith("org.apache.axis2.rpc.receivers.");
    }

    /** The document element of {@code bytes}, with nothing below its start tag parsed yet. */
    private static OMElement lazyRoot(byte[] bytes) throws AxisFault {
        try {
            return OMXMLBuilderFactory.createOMBuilder(new ByteArrayInputStream(bytes)).getDocumentElement();
        } catch (OMException e) {
            throw new AxisFault("bftws: the state is not XML: " + e.getMessage(), e);
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
