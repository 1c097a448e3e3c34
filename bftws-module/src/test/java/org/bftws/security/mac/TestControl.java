package org.bftws.security.mac;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.context.MessageContext;
import org.bftws.security.AuthenticatedParty;
import org.bftws.wire.WireBundle;

/**
 * A stand-in for the control service's receiver in the HTTP test: reports what the security layer established about
 * the message it got (who sent it, how it was authenticated, the bundle the mac profile decoded).
 */
public class TestControl {
    static final String NS = "urn:bftws:test";

    public OMElement Messages(OMElement bundle) {
        MessageContext mc = MessageContext.getCurrentMessageContext();
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement reply = f.createOMElement("Received", f.createOMNamespace(NS, "t"));
        Object party = mc.getProperty(AuthenticatedParty.PROPERTY);
        reply.addAttribute("from", party instanceof AuthenticatedParty p ? p.name() : "nobody", null);
        Object decoded = mc.getProperty(WireBundle.PROPERTY);
        reply.addAttribute("messages", decoded instanceof WireBundle b ? Integer.toString(b.messages().size()) : "none", null);
        String header = mc.getEnvelope().getHeader() == null ? "" : mc.getEnvelope().getHeader().toString();
        reply.addAttribute("mac", Boolean.toString(header.contains(AuthenticatorHeader.NS)), null);
        reply.addAttribute("wsse", Boolean.toString(header.contains(":Security")), null);
        return reply;
    }
}
