package org.bftws.axis2.ordering;

import org.bftws.axis2.rm.RmDestination;
import java.io.ByteArrayInputStream;
import java.util.Iterator;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.AddressingConstants;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.context.ServiceContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.bftws.core.RequestId;
import org.bftws.security.AuthenticatedParty;
import org.bftws.axis2.security.SecurityRuntime;

/**
 * Builds the message context a request is delivered in when no HTTP exchange brought it to this replica: a client
 * request whose bytes came from another replica (checked against the client's own signature before the core saw
 * it), and the {@code get_state} / {@code set_state} requests the replica makes itself. The service's own message
 * receiver then runs exactly as for a request that arrived over HTTP.
 */
final class RequestContexts {

    private final ConfigurationContext configuration;
    private final AxisService service;

    RequestContexts(ConfigurationContext configuration, AxisService service) {
        this.configuration = configuration;
        this.service = service;
    }

    AxisService service() {
        return service;
    }

    /** A client request from its signed bytes, dispatched by its wsa:Action (or its body element). */
    MessageContext fromBytes(RequestId id, byte[] envelopeBytes) throws AxisFault {
        SOAPEnvelope envelope = OMXMLBuilderFactory.createSOAPModelBuilder(new ByteArrayInputStream(envelopeBytes), null)
                .getSOAPEnvelope();
        envelope.build();
        String action = WsaHeaders.text(envelope, "Action");
        AxisOperation op = action == null ? null : service.getOperationByAction(action);
        OMElement first = envelope.getBody().getFirstElement();
        if (op == null && first != null) {
            op = service.getOperationByMessageElementQName(first.getQName());
        }
        if (op == null) {
            throw new AxisFault("bftws: request " + id + " names no operation of " + service.getName()
                    + " (action " + action + ")");
        }
        MessageContext mc = context(op, envelope);
        mc.setWSAAction(action);
        String messageId = WsaHeaders.text(envelope, "MessageID");
        if (messageId != null) {
            mc.setMessageID(messageId);
        }
        mc.setProperty(RmDestination.SEQUENCE_ID, id.client());
        mc.setProperty(RmDestination.MESSAGE_NUMBER, id.number());
        answeredUnderMac(mc, envelope);
        return mc;
    }

    /**
     * mac profile: the reply to an ordered request that came from another replica goes under the MAC key this replica
     * shares with the client its authenticator names, as a reply to the client's own copy does. The group ordered the
     * request, so the client is authenticated (its entry verified here, or f+1 nodes vouched for it). Without this the
     * reply was WS-Security signed (RSA): 29 % of the CPU of a replica that had fallen behind and executed relayed
     * requests (JFR, testbed, 8 clients, 2026-11-27), for a reply only a retransmission ever reads.
     */
    private void answeredUnderMac(MessageContext mc, SOAPEnvelope envelope) {
        SecurityRuntime.of(configuration).macProfile().flatMap(mac -> mac.namedClient(envelope))
                .ifPresent(client -> mc.setProperty(AuthenticatedParty.PROPERTY,
                        new AuthenticatedParty(client, null)));
    }

    /** A request the replica makes itself: {@code operation}'s input element holding {@code children}. */
    MessageContext ownRequest(String operation, Iterator<OMElement> children) throws AxisFault {
        return ownRequestWithBody(operation, (factory, element) -> {
            OMElement body = factory.createOMElement(element);
            while (children != null && children.hasNext()) {
                body.addChild(children.next());
            }
            return body;
        });
    }

    /** Makes the body element of a request, named {@code element} (the operation's input element). */
    interface BodyElement {
        OMElement make(SOAPFactory factory, QName element) throws AxisFault;
    }

    /** A request the replica makes itself, with the body element {@code body} makes. */
    MessageContext ownRequestWithBody(String operation, BodyElement body) throws AxisFault {
        AxisOperation op = service.getOperation(new QName(operation));
        if (op == null) {
            throw new AxisFault("bftws: service " + service.getName() + " has no " + operation + " operation; a "
                    + "replicated service must offer get_state and set_state (BFT-WS paper, section 3.2)");
        }
        SOAPFactory factory = OMAbstractFactory.getSOAP11Factory();
        SOAPEnvelope envelope = factory.getDefaultEnvelope();
        envelope.getBody().addChild(body.make(factory, inputElement(op, operation)));
        MessageContext mc = context(op, envelope);
        mc.setWSAAction(op.getInputAction());
        mc.setProperty(org.bftws.axis2.security.SecurityRuntime.REPLY_STAYS_LOCAL, Boolean.TRUE);
        return mc;
    }

    private QName inputElement(AxisOperation op, String operation) {
        var in = op.getMessage(org.apache.axis2.wsdl.WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        QName q = in == null ? null : in.getElementQName();
        return q != null ? q : new QName(service.getTargetNamespace(), operation);
    }

    private MessageContext context(AxisOperation op, SOAPEnvelope envelope) throws AxisFault {
        MessageContext mc = configuration.createMessageContext();
        mc.setEnvelope(envelope);
        mc.setServerSide(true);
        mc.setAxisServiceGroup(service.getAxisServiceGroup());
        mc.setAxisService(service);
        mc.setAxisOperation(op);
        // The service's own scope decides its contexts: an application-scoped service keeps one instance (and so
        // one state) for requests that came over HTTP and those delivered here.
        configuration.fillServiceContextAndServiceGroupContext(mc);
        ServiceContext serviceContext = mc.getServiceContext();
        OperationContext opContext = serviceContext.createOperationContext(op);
        opContext.addMessageContext(mc);
        mc.setOperationContext(opContext);
        mc.setReplyTo(new EndpointReference(AddressingConstants.Final.WSA_ANONYMOUS_URL));
        return mc;
    }
}
