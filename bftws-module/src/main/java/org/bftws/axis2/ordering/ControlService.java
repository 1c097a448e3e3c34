package org.bftws.axis2.ordering;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOnlyAxisOperation;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.MessageReceiver;
import org.bftws.security.AuthenticatedParty;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireFormatException;

/**
 * The control service the module deploys on every replica: one in-only operation that receives the other nodes'
 * PBFT messages ({@code pbft:Messages} bundles, over WS-RM, authenticated by the Security phase) when the group uses
 * the SOAP replica channel ({@link org.bftws.axis2.channels.SoapChannel}); on the binary channel it refuses them.
 * The bundle goes to {@link BftReplica#receive}, as a binary frame does: each message's embedded signatures and
 * relayed client requests are checked, then the verified ones go to the {@link TotalOrderManager}.
 */
public final class ControlService implements MessageReceiver {
    public static final String NAME = "BftControl";
    public static final String ACTION = org.bftws.axis2.channels.SoapChannel.ACTION;

    /** This node's replica role, or null while it has none. */
    private final java.util.function.Supplier<BftReplica> replica;

    private ControlService(java.util.function.Supplier<BftReplica> replica) {
        this.replica = replica;
    }

    /** Deploys the control service on a node (once); its PBFT messages go to {@code replica}'s role once it runs. */
    public static void deploy(AxisConfiguration config, java.util.function.Supplier<BftReplica> replica)
            throws AxisFault {
        if (config.getService(NAME) != null) {
            return;
        }
        AxisService service = new AxisService(NAME);
        InOnlyAxisOperation op = new InOnlyAxisOperation(new QName("Messages"));
        op.setMessageReceiver(new ControlService(replica));
        op.setSoapAction(ACTION);
        service.addOperation(op);
        service.mapActionToOperation(ACTION, op);
        // adding it engages the globally engaged modules; engaged per service (services.xml), bftws must be engaged
        // here too: its handlers authenticate the PBFT messages and run WS-RM for this service as for the replicated one
        config.addService(service);
        org.apache.axis2.description.AxisModule bftws =
                config.getModule(org.bftws.axis2.settings.ModuleParameters.MODULE_NAME);
        if (bftws != null && !org.bftws.axis2.security.SecurityRuntime.engages(service)) {
            service.engageModule(bftws);
        }
    }

    @Override
    public void receive(MessageContext mc) throws AxisFault {
        BftReplica replica = this.replica.get();
        if (replica == null) {
            throw new AxisFault("bftws: this node is not a replica of a BFT group; PBFT messages are not accepted");
        }
        if (!replica.usesSoapChannel()) {
            replica.count("PBFT bundles refused: the group uses the binary channel");
            throw new AxisFault("bftws: this group's replicas exchange PBFT messages over the binary channel"
                    + " (replicaChannel=\"binary\"), not through the control service");
        }
        WireBundle bundle = (WireBundle) mc.getProperty(WireBundle.PROPERTY);
        if (replica.codec().identity() != org.bftws.core.RequestIdentity.BYTES) {
            bundle = null; // the security handler named every request by its bytes; this replica names some otherwise
        }
        if (bundle == null) {
            OMElement body = mc.getEnvelope().getBody().getFirstElement();
            try {
                bundle = replica.codec().decode(body);
            } catch (WireFormatException e) {
                replica.count("malformed PBFT bundles");
                throw new AxisFault("bftws: malformed PBFT message: " + e.getMessage());
            }
        }
        int from = replica.senderOf((AuthenticatedParty) mc.getProperty(AuthenticatedParty.PROPERTY), bundle);
        if (from < 0) {
            replica.count("PBFT messages from unknown senders");
            throw new AxisFault("bftws: PBFT messages are accepted only from the nodes of this group");
        }
        replica.receive(from, bundle.messages());
    }
}
