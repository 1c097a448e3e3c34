package org.bftws.security;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;

/** The service behind the security tests: answers echo(text) with echoResponse(text). */
public class TestEcho {
    public static final String NS = "http://echo.bftws.org";

    public OMElement echo(OMElement request) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMElement reply = f.createOMElement("echoResponse", f.createOMNamespace(NS, "ns"));
        reply.setText(request.getFirstElement() == null ? request.getText() : request.getFirstElement().getText());
        return reply;
    }
}
