package org.bftws.axis2.ordering;

import javax.xml.namespace.QName;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisOperation;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOutAxisOperation;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.MessageReceiver;

/**
 * What an agreement-only node (Configuration II's f ordering nodes, III's agreement nodes) deploys in place of the
 * replicated service, which it does not run (paper 3.3.2): a service of the same name, so the module's WS-RM
 * operations (CreateSequence, TerminateSequence ...) dispatch to it, and one operation every client request is
 * dispatched to before the node takes it into ordering. Nothing is ever executed here.
 */
final class OrderingOnlyService implements MessageReceiver {

    static final QName ORDER = new QName("urn:bftws:1", "order");

    private final String service;

    private OrderingOnlyService(String service) {
        this.service = service;
    }

    /**
     * Deploys the stand-in for {@code service} on this node (once); null while Axis2 has not yet engaged the bftws
     * module globally (the stand-in must get the module's handlers and WS-RM operations like any service).
     */
    static AxisService deploy(AxisConfiguration config, String service) throws AxisFault {
        AxisService existing = config.getService(service);
        if (existing != null) {
            return existing;
        }
        org.apache.axis2.description.AxisModule bftws = config.getModule(org.bftws.axis2.settings.ModuleParameters.MODULE_NAME);
        if (bftws == null || !config.isEngaged(bftws)) {
            return null;
        }
        AxisService standIn = new AxisService(service);
        AxisOperation order = new InOutAxisOperation(ORDER);
        order.setMessageReceiver(new OrderingOnlyService(service));
        standIn.addOperation(order);
        standIn.addParameter(BftReplica.ORDERING_ONLY, Boolean.TRUE);
        // Adding it engages the globally engaged modules (addressing, bftws) on it, as for any deployed service.
        config.addService(standIn);
        return standIn;
    }

    /** Whether {@code service} is such a stand-in. */
    static boolean isStandIn(AxisService service) {
        return service != null && service.getParameter(BftReplica.ORDERING_ONLY) != null;
    }

    @Override
    public void receive(MessageContext mc) throws AxisFault {
        throw new AxisFault("bftws: this node orders requests to " + service + " but does not execute them (action "
                + mc.getWSAAction() + ")");
    }
}
