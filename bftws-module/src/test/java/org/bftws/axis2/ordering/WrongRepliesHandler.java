package org.bftws.axis2.ordering;

import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Test only: makes a replica Byzantine by rewriting the application replies it sends (every text in the body
 * becomes "forged"). Installed in one test node's out-flow through its axis2.xml; nothing in production refers to it.
 */
public final class WrongRepliesHandler extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        if (mc.isServerSide() && mc.getEnvelope() != null && mc.getEnvelope().getBody().getFirstElement() != null
                && !mc.getEnvelope().hasFault()) {
            forge(mc.getEnvelope().getBody().getFirstElement());
        }
        return InvocationResponse.CONTINUE;
    }

    private static void forge(OMElement e) {
        Iterator<OMElement> children = e.getChildElements();
        if (!children.hasNext()) {
            e.setText("forged");
            return;
        }
        while (children.hasNext()) {
            forge(children.next());
        }
    }
}
