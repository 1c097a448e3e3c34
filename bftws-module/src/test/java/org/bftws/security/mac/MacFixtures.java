package org.bftws.security.mac;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.bftws.core.Digest;
import org.bftws.core.Message;
import org.bftws.core.Prepare;
import org.bftws.core.Status;
import org.bftws.security.SecurityRefusal;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.KeyedGroup;
import org.bftws.wire.SignatureCache;
import org.bftws.wire.WireLimits;

/** Envelopes and authenticators of the mac profile tests. */
final class MacFixtures {
    private MacFixtures() {
    }

    static MacAuthenticator authenticator(KeyedGroup group, String party) {
        return new MacAuthenticator(group.config, party, g -> group.wsSecurity(party));
    }

    /** A bundle from node 0: its signed prepare and its status (lastExecuted="4"). */
    static String bundle(KeyedGroup group) {
        Prepare p = new Prepare(0, 5, Digest.fromBytes(new byte[32]), 0);
        SignatureCache sigs = new SignatureCache(10);
        sigs.put(p, group.signer(0).sign(p));
        List<Message> messages = List.of(p, new Status(0, 0, 4, 0));
        StringWriter w = new StringWriter();
        try {
            new BundleCodec(WireLimits.forGroup(group.group)).encode(messages, sigs, true,
                    OMAbstractFactory.getOMFactory(), null).serialize(w);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }

    /** A one-way message to {@code to}, number 7 of sequence {@code seq}, with an acknowledgement piggy-backed. */
    static String envelope(String to, String seq, String body) {
        return "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>" + to + "</wsa:To><wsa:MessageID>urn:uuid:m-1</wsa:MessageID>"
                + "<wsa:Action>urn:Messages</wsa:Action>"
                + "<wsrm:Sequence soapenv:mustUnderstand=\"1\"><wsrm:Identifier>" + seq + "</wsrm:Identifier>"
                + "<wsrm:MessageNumber>7</wsrm:MessageNumber></wsrm:Sequence>"
                + "<wsrm:SequenceAcknowledgement><wsrm:Identifier>urn:uuid:back</wsrm:Identifier>"
                + "<wsrm:AcknowledgementRange Upper=\"12\" Lower=\"1\"/></wsrm:SequenceAcknowledgement>"
                + "</soapenv:Header><soapenv:Body>" + body + "</soapenv:Body></soapenv:Envelope>";
    }

    /** What {@code from} puts on the wire for {@code xml} addressed to {@code to}. */
    static String sent(MacAuthenticator from, KeyedGroup group, String to, String xml) throws SecurityRefusal {
        MessageContext out = new MessageContext();
        try {
            out.setEnvelope(parse(xml));
        } catch (AxisFault e) {
            throw new IllegalStateException(e);
        }
        out.setTo(new EndpointReference(to));
        out.setServerSide(false);
        from.protect(out, group.group);
        return text(out.getEnvelope());
    }

    /** {@code wire} as a node receives a request. */
    static MessageContext received(String wire) throws AxisFault {
        MessageContext in = new MessageContext();
        in.setEnvelope(parse(wire));
        in.setServerSide(true);
        return in;
    }

    static SOAPEnvelope parse(String xml) {
        return OMXMLBuilderFactory.createSOAPModelBuilder(new StringReader(xml)).getSOAPEnvelope();
    }

    static String text(SOAPEnvelope env) {
        StringWriter w = new StringWriter();
        try {
            env.serialize(w);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(e);
        }
        return w.toString();
    }
}
