package org.bftws.axis2.bft;

import java.util.ArrayList;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.InOnlyAxisOperation;
import org.apache.axis2.engine.AxisConfiguration;
import org.apache.axis2.engine.MessageReceiver;
import org.bftws.axis2.BftwsNode;
import org.bftws.core.Message;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.SecurityRuntime;
import org.bftws.wire.ProofRefusal;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireFormatException;
import org.bftws.wire.WireMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control service the module deploys on every replica: one in-only operation that receives the other nodes'
 * PBFT messages ({@code pbft:Messages} bundles, over WS-RM, authenticated by the Security phase). Each message's
 * embedded signatures and relayed client requests are checked, then it goes to the {@link TotalOrderManager}.
 * A message that fails is dropped, counted and logged; the others in the bundle still count.
 */
public final class ControlService implements MessageReceiver {
    private static final Logger LOG = LoggerFactory.getLogger(ControlService.class);

    public static final String NAME = "BftControl";
    public static final String ACTION = "urn:bftws:pbft:Messages";

    /** Deploys the control service on a node (once). */
    public static void deploy(AxisConfiguration config) throws AxisFault {
        if (config.getService(NAME) != null) {
            return;
        }
        AxisService service = new AxisService(NAME);
        InOnlyAxisOperation op = new InOnlyAxisOperation(new QName("Messages"));
        op.setMessageReceiver(new ControlService());
        op.setSoapAction(ACTION);
        service.addOperation(op);
        service.mapActionToOperation(ACTION, op);
        config.addService(service);
    }

    @Override
    public void receive(MessageContext mc) throws AxisFault {
        BftReplica replica = BftwsNode.of(mc.getConfigurationContext()).replica();
        if (replica == null) {
            throw new AxisFault("bftws: this node is not a replica of a BFT group; PBFT messages are not accepted");
        }
        WireBundle bundle = (WireBundle) mc.getProperty(WireBundle.PROPERTY);
        if (bundle == null) {
            OMElement body = mc.getEnvelope().getBody().getFirstElement();
            try {
                bundle = replica.codec().decode(body);
            } catch (WireFormatException e) {
                replica.count("malformed PBFT bundles");
                throw new AxisFault("bftws: malformed PBFT message: " + e.getMessage());
            }
        }
        int from = replica.senderOf((AuthenticatedParty) mc.getProperty(SecurityRuntime.AUTHENTICATED_PARTY), bundle);
        if (from < 0) {
            replica.count("PBFT messages from unknown senders");
            throw new AxisFault("bftws: PBFT messages are accepted only from the nodes of this group");
        }
        List<Message> verified = new ArrayList<>(bundle.messages().size());
        for (WireMessage wm : bundle.messages()) {
            try {
                replica.verify(wm, from);
            } catch (ProofRefusal refusal) {
                replica.count("PBFT messages refused: " + refusal.reason());
                LOG.info("dropped a PBFT message from node {}: {}", from, refusal.getMessage());
                continue;
            }
            verified.add(wm.message());
        }
        // One hand-over for the whole bundle: what it makes the core persist is forced to disk once, not once per
        // message (a new view's re-proposals otherwise cost an fsync per slot: docs/recovery.md).
        replica.manager().onMessages(verified);
    }
}
