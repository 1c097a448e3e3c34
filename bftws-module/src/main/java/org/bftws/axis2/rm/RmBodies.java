package org.bftws.axis2.rm;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axiom.soap.SOAPBody;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.rm.Wsrm;

/** Builds and reads the bodies of the WS-RM 1.1 protocol messages; a body that is not well-formed XML is an InvalidMessage fault. */
public final class RmBodies {

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    static final QName CREATE_SEQUENCE = new QName(Wsrm.NS, "CreateSequence");
    static final QName ACKS_TO = new QName(Wsrm.NS, "AcksTo");
    static final QName OFFER = new QName(Wsrm.NS, "Offer");
    static final QName ACCEPT = new QName(Wsrm.NS, "Accept");
    static final QName ENDPOINT = new QName(Wsrm.NS, "Endpoint");
    static final QName LAST_MSG_NUMBER = new QName(Wsrm.NS, "LastMsgNumber");
    static final QName WSA_ADDRESS = new QName(Wsrm.WSA_NS, "Address");
    /** The BFT-WS extension element of CreateSequence that carries the client's UUID (paper 3.3.1.1). */
    public static final QName CLIENT_UUID = new QName(Wsrm.BFTWS_NS, "ClientUUID", "bftws");

    /** What a CreateSequence asked for. */
    public record CreateSequence(String acksTo, String clientUuid, String offeredId, String offerEndpoint) {
    }

    private RmBodies() {
    }

    public static OMElement createSequence(String clientUuid) {
        OMNamespace rm = rm();
        OMElement cs = F.createOMElement("CreateSequence", rm);
        address(F.createOMElement("AcksTo", rm, cs), Wsrm.WSA_ANONYMOUS);
        if (clientUuid != null) {
            F.createOMElement(CLIENT_UUID, cs).setText(clientUuid);
        }
        return cs;
    }

    /**
     * The protocol message's body element: the first child of the SOAP body; null when the body is empty or the
     * envelope has none (RmReadersFuzzTest found an envelope without a body), which every reader refuses. XML that
     * turns out not to be well formed on the way to the body is an InvalidMessage fault (RmReadersFuzzTest again).
     */
    public static OMElement of(SOAPEnvelope envelope) throws RmFault {
        return RmHeaders.parsed(() -> {
            SOAPBody body = envelope.getBody();
            return body == null ? null : body.getFirstElement();
        });
    }

    public static CreateSequence readCreateSequence(OMElement body) throws RmFault {
        return RmHeaders.parsed(() -> createSequenceOf(body));
    }

    private static CreateSequence createSequenceOf(OMElement body) throws RmFault {
        expect(body, CREATE_SEQUENCE);
        OMElement acksTo = body.getFirstChildWithName(ACKS_TO);
        if (acksTo == null) {
            throw RmFault.invalidMessage("wsrm:CreateSequence has no wsrm:AcksTo");
        }
        String offered = null;
        String offerEndpoint = null;
        OMElement offer = body.getFirstChildWithName(OFFER);
        if (offer != null) {
            offered = RmHeaders.text(offer, RmHeaders.IDENTIFIER, "wsrm:Offer");
            OMElement ep = offer.getFirstChildWithName(ENDPOINT);
            offerEndpoint = ep == null ? Wsrm.WSA_ANONYMOUS : addressOf(ep);
        }
        OMElement uuid = body.getFirstChildWithName(CLIENT_UUID);
        String clientUuid = uuid == null || uuid.getText().isBlank() ? null : uuid.getText().trim();
        return new CreateSequence(addressOf(acksTo), clientUuid, offered, offerEndpoint);
    }

    /** CreateSequenceResponse, with wsrm:Accept when an offered sequence was accepted. */
    public static OMElement createSequenceResponse(String id, boolean acceptOffer) {
        OMNamespace rm = rm();
        OMElement r = F.createOMElement("CreateSequenceResponse", rm);
        F.createOMElement("Identifier", rm, r).setText(id);
        if (acceptOffer) {
            OMElement accept = F.createOMElement("Accept", rm, r);
            address(F.createOMElement("AcksTo", rm, accept), Wsrm.WSA_ANONYMOUS);
        }
        return r;
    }

    public static String readCreateSequenceResponse(OMElement body) throws RmFault {
        return RmHeaders.parsed(() -> {
            expect(body, new QName(Wsrm.NS, "CreateSequenceResponse"));
            return RmHeaders.text(body, RmHeaders.IDENTIFIER, "wsrm:CreateSequenceResponse");
        });
    }

    /** CloseSequence, TerminateSequence and their responses: an identifier and, for requests, LastMsgNumber. */
    public static OMElement identified(String localName, String id, long lastMsgNumber) {
        OMNamespace rm = rm();
        OMElement e = F.createOMElement(localName, rm);
        F.createOMElement("Identifier", rm, e).setText(id);
        if (lastMsgNumber > 0) {
            F.createOMElement("LastMsgNumber", rm, e).setText(Long.toString(lastMsgNumber));
        }
        return e;
    }

    /** The wsrm:Identifier of a CloseSequence / TerminateSequence (or response) body. */
    public static String identifier(OMElement body, String localName) throws RmFault {
        return RmHeaders.parsed(() -> {
            expect(body, new QName(Wsrm.NS, localName));
            return RmHeaders.text(body, RmHeaders.IDENTIFIER, "wsrm:" + localName);
        });
    }

    private static void expect(OMElement body, QName name) throws RmFault {
        if (body == null || !name.equals(body.getQName())) {
            throw RmFault.invalidMessage("expected a " + name.getLocalPart() + " body but got "
                    + (body == null ? "an empty body" : body.getQName()));
        }
    }

    private static String addressOf(OMElement epr) throws RmFault {
        OMElement a = epr.getFirstChildWithName(WSA_ADDRESS);
        if (a == null) {
            throw RmFault.invalidMessage(epr.getLocalName() + " has no wsa:Address (only WS-Addressing 1.0 is supported)");
        }
        return a.getText().trim();
    }

    private static void address(OMElement epr, String address) {
        F.createOMElement(WSA_ADDRESS, epr).setText(address);
    }

    private static OMNamespace rm() {
        return F.createOMNamespace(Wsrm.NS, Wsrm.PREFIX);
    }
}
