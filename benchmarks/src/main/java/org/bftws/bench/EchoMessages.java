package org.bftws.bench;

import java.util.Iterator;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.bftws.samples.echo.EchoService;

/**
 * The echo benchmark's messages (paper section 4): a request is an XML document of K elements, built with AXIOM;
 * the service returns the same elements. Every item's text names its request and position, so a reply that is
 * another request's, truncated, reordered or altered is caught.
 */
final class EchoMessages {

    static final String ACTION = EchoService.NS + "/echo";
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    private EchoMessages() {
    }

    /** {@code <e:echo>} with {@code size} {@code <e:item>} children for request {@code tag}. */
    static OMElement request(String tag, int size) {
        OMElement echo = F.createOMElement("echo", E);
        for (int k = 0; k < size; k++) {
            F.createOMElement("item", E, echo).setText(item(tag, k));
        }
        return echo;
    }

    /** Null when {@code reply} echoes request {@code tag}'s items in order, else what is wrong with it. */
    static String problem(OMElement reply, String tag, int size) {
        if (reply == null) {
            return "empty reply";
        }
        if (!EchoService.NS.equals(reply.getNamespaceURI()) || !"echoResponse".equals(reply.getLocalName())) {
            return "reply is " + reply.getQName() + ", not {" + EchoService.NS + "}echoResponse";
        }
        int k = 0;
        for (Iterator<OMElement> items = reply.getChildElements(); items.hasNext(); k++) {
            OMElement item = items.next();
            if (k >= size) {
                return "reply has more than the " + size + " items sent";
            }
            if (!"item".equals(item.getLocalName()) || !item(tag, k).equals(item.getText())) {
                return "reply item " + k + " is not the one sent";
            }
        }
        return k == size ? null : "reply has " + k + " of the " + size + " items sent";
    }

    private static String item(String tag, int k) {
        return tag + "-" + k;
    }
}
