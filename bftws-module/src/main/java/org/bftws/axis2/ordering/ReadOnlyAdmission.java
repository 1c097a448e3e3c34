package org.bftws.axis2.ordering;

import org.bftws.rm.RmCounters;
import org.bftws.axis2.headers.ReadOnlyHeader;
import org.bftws.axis2.rm.RmFault;
import org.bftws.axis2.rm.RmHeaders;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.Handler.InvocationResponse;
import org.bftws.axis2.delivery.HttpExchange;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.config.GroupConfig;

/**
 * A replica's side of a read-only request (docs/protocol.md, "Read-only requests"): a request carrying the
 * {@link ReadOnlyHeader} to an operation the group declares read-only goes straight to the
 * {@link org.bftws.axis2.ordering.TotalOrderInvoker}, which executes it between two ordered executions against the
 * current state, and the reply goes back marked read-only. It takes no WS-RM message number and no place in the
 * total order. The marker on anything else is refused with a SOAP fault that says why, and counted: a faulty client
 * (or anyone who could forge the marker, which the request authenticator prevents) must not get a state-changing
 * operation executed outside the order on some replicas.
 */
public final class ReadOnlyAdmission {
    /** Message context property on a read-only request being executed: its reply is marked read-only. */
    public static final String READ_ONLY = "bftws.readOnly";

    private ReadOnlyAdmission() {
    }

    /** Admits read-only request {@code mc} to {@code replica} (null: this node has no replica role). */
    public static InvocationResponse accept(MessageContext mc, BftReplica replica, RmCounters counters)
            throws AxisFault {
        String service = mc.getAxisService() == null ? "?" : mc.getAxisService().getName();
        if (replica == null || !replica.service().equals(service)) {
            throw refuse(mc, counters, replica, "service " + service + " is not replicated by this node: a read-only "
                    + "request (bftws:ReadOnly) goes only to the replicas of a group");
        }
        GroupConfig group = replica.group();
        if (RmHeaders.sequence(mc.getEnvelope()) != null) {
            throw refuse(mc, counters, replica, "a read-only request (bftws:ReadOnly) is sent outside any WS-RM sequence; "
                    + "this one also carries a wsrm:Sequence header");
        }
        String operation = mc.getAxisOperation() == null ? null : mc.getAxisOperation().getName().getLocalPart();
        if (operation == null || group.readOnlyOperation(operation).isEmpty()) {
            throw refuse(mc, counters, replica, "operation " + operation + " of " + service + " is not declared read-only "
                    + "(<operation name=\"" + operation + "\" readOnly=\"true\"/> in the group of replicas.xml), "
                    + "so it executes only in the total order: send it in the client's WS-RM sequence");
        }
        ReadOnlyHeader.find(mc.getEnvelope()).setProcessed();
        if (!replica.executes()) {
            // an agreement-only node (Configurations II, III) has no service state to read: the executors answer
            HttpExchange x = HttpExchange.of(mc);
            if (x != null) {
                x.answerNow(null);
            }
            return InvocationResponse.ABORT;
        }
        mc.setProperty(ServiceDelivery.SUSPENDED, Boolean.TRUE);
        mc.setProperty(READ_ONLY, Boolean.TRUE);
        replica.invoker().read(mc, HttpExchange.of(mc));
        return InvocationResponse.SUSPEND;
    }

    private static AxisFault refuse(MessageContext mc, RmCounters counters, BftReplica replica, String why) {
        if (replica != null) {
            replica.readOnlyRefused();
        }
        return RmFault.invalidMessage(why).logRefusal(mc, counters.refused.incrementAndGet());
    }
}
