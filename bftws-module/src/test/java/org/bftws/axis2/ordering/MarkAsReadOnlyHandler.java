package org.bftws.axis2.ordering;

import org.apache.axis2.context.MessageContext;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.axis2.headers.ReadOnlyHeader;

/**
 * Test only: a network attacker between client and replicas, after the client authenticated its request: it adds
 * the {@code bftws:ReadOnly} marker to every request that does not carry it (trying to have an ordered write executed
 * at once, outside the order). Installed after the security handler in one test client's axis2.xml.
 */
public final class MarkAsReadOnlyHandler extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) {
        if (!mc.isServerSide() && mc.getEnvelope() != null && !ReadOnlyHeader.present(mc.getEnvelope())
                && mc.getWSAAction() != null && mc.getWSAAction().endsWith("/append")) {
            ReadOnlyHeader.addTo(mc.getEnvelope());
        }
        return InvocationResponse.CONTINUE;
    }
}
