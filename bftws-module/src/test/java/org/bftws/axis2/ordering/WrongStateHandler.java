package org.bftws.axis2.ordering;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;

/**
 * Test only: makes a replica report a wrong state at every checkpoint (its get_state response gets an extra element)
 * while it answers clients correctly. Installed through one test node's axis2.xml.
 */
public final class WrongStateHandler extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        OMElement first = mc.isServerSide() && mc.getEnvelope() != null ? mc.getEnvelope().getBody().getFirstElement() : null;
        if (first != null && "get_stateResponse".equals(first.getLocalName()) && first.getFirstElement() != null) {
            OMElement state = first.getFirstElement();
            state.addAttribute("forged", "yes", null);
        }
        return InvocationResponse.CONTINUE;
    }
}
