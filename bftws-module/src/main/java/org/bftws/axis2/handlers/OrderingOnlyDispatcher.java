package org.bftws.axis2.handlers;


import org.bftws.axis2.ordering.BftReplica;
import org.bftws.axis2.ordering.ControlService;
import org.bftws.axis2.ordering.WsaHeaders;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.handlers.AbstractHandler;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.rm.Wsrm;

/**
 * On an agreement-only replica (Configurations II and III), which does not run the replicated service: dispatches a
 * client's request for that service to the stand-in's ordering operation ({@link OrderingOnlyService}). It runs in the
 * Transport phase, before Axis2's addressing-based dispatch, which would otherwise refuse an action no deployed
 * operation has (ActionNotSupported); it reads wsa:To and wsa:Action from the envelope itself. WS-RM protocol
 * messages are left to the module's operations.
 */
public final class OrderingOnlyDispatcher extends AbstractHandler {

    @Override
    public InvocationResponse invoke(MessageContext mc) throws AxisFault {
        if (!mc.isServerSide() || mc.getAxisOperation() != null) {
            return InvocationResponse.CONTINUE;
        }
        BftReplica replica = BftwsNode.of(mc.getConfigurationContext()).replica();
        if (replica == null || replica.executes()) {
            return InvocationResponse.CONTINUE;
        }
        SOAPEnvelope envelope = mc.getEnvelope();
        String action = WsaHeaders.text(envelope, "Action");
        String to = WsaHeaders.text(envelope, "To");
        if (action == null || Wsrm.isControlAction(action) || ControlService.ACTION.equals(action) || to == null
                || !(to.equals(replica.group().endpoint().toString()) || to.endsWith("/" + replica.service()))) {
            return InvocationResponse.CONTINUE;
        }
        AxisService service = mc.getConfigurationContext().getAxisConfiguration().getService(replica.service());
        AxisOperation order = replica.orderingOnlyOperation(service);
        if (order != null) {
            mc.setAxisService(service);
            mc.setAxisOperation(order);
        }
        return InvocationResponse.CONTINUE;
    }
}
