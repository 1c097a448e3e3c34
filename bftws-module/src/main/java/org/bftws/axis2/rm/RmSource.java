package org.bftws.axis2.rm;

import org.bftws.axis2.settings.ModuleParameters;
import org.bftws.rm.Backoff;
import org.bftws.voting.Target;
import java.net.URI;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.bftws.tier.NestedNumbering;
import org.bftws.tier.NestedSequences;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.SequenceIds;
import org.bftws.rm.Wsrm;

/**
 * The client role of one Axis2 node: resolves targets, creates sequences (CreateSequence with the client's UUID
 * in the BFT-WS extension element, checking the answered identifier against its own derivation), hands out
 * message numbers and terminates sequences. Protocol messages go through a nested ServiceClient on the same
 * configuration, so they take the full out-flow (signing) and the MulticastSender like application messages.
 */
public final class RmSource {

    /** Options property: messages with different keys to the same address use different sequences. */
    public static final String SEQUENCE_KEY = "bftws.sequenceKey";
    /** Options property: "false" sends this client's messages without WS-RM. */
    public static final String RM_ENABLED = "bftws.rm";
    /**
     * Options property: the wsrm:Sequence header ({@link RmHeaders.SequenceHeader}) a TerminateSequence to a
     * replicated group carries, which orders it like a request.
     */
    public static final String ORDERED_TERMINATE = "bftws.orderedTerminate";
    /** Sequence key of a group's virtual sequence for nested calls. */
    private static final String NESTED_KEY = "bftws-nested";

    private final ConfigurationContext configuration;
    private final ReplicasConfig replicas;
    private final ClientSequences sequences = new ClientSequences();
    private final NestedNumbering nestedNumbering = new NestedNumbering();
    private final long timeoutMillis;

    public RmSource(ConfigurationContext configuration, ReplicasConfig replicas, long timeoutMillis) {
        this.configuration = configuration;
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
    }

    public ClientSequences sequences() {
        return sequences;
    }

    /** How far this node has numbered its group's virtual sequences (checkpointed with the service's state). */
    public NestedNumbering nestedNumbering() {
        return nestedNumbering;
    }

    /** A group endpoint maps to its nodes; any other address is a direct WS-RM endpoint. */
    public Target resolve(String address) {
        URI uri = URI.create(address);
        return replicas.groupByEndpoint(uri).map(Target::group).orElseGet(() -> Target.direct(uri));
    }

    /** The sequence an application message to {@code mc}'s address uses, created on first use. */
    public OutboundSequence sequenceFor(MessageContext mc) throws AxisFault {
        String address = mc.getTo().getAddress();
        String key = ClientSequences.key(address, mc.getOptions().getProperty(SEQUENCE_KEY));
        Object backoff = mc.getProperty(Backoff.PROPERTY);
        return sequences.obtain(key, () -> create(address, backoff));
    }

    /**
     * Multi-tier (paper 3.4): the virtual sequence from this node's group {@code caller} to {@code mc}'s address,
     * created on first use with the group's derived UUID, so every replica of the group uses the same sequence.
     */
    public OutboundSequence nestedSequenceFor(MessageContext mc, GroupConfig caller) throws AxisFault {
        String address = mc.getTo().getAddress();
        Object backoff = mc.getProperty(Backoff.PROPERTY);
        return sequences.obtain(ClientSequences.key(address, NESTED_KEY), () -> {
            OutboundSequence s = create(address, NestedSequences.callerUuid(caller), backoff);
            nestedNumbering.created(s);
            return s;
        });
    }

    private OutboundSequence create(String address, Object backoff) throws AxisFault {
        return create(address, SequenceIds.newClientUuid(), backoff);
    }

    private OutboundSequence create(String address, String uuid, Object backoff) throws AxisFault {
        OMElement response = call(address, Wsrm.CREATE_SEQUENCE, RmBodies.createSequence(uuid), backoff);
        String id = RmBodies.readCreateSequenceResponse(response);
        URI endpoint = resolve(address).address();
        // The identifier's second half names us as the replicas authenticated us; its first half is ours to check.
        if (!SequenceIds.derivedFrom(id, uuid, endpoint)) {
            throw new AxisFault("bftws: " + address + " answered CreateSequence with identifier " + id
                    + ", which is not derived from our UUID and the endpoint " + endpoint
                    + " (is the service's group endpoint in replicas.xml the address we used?)");
        }
        return new OutboundSequence(id, uuid);
    }

    /**
     * Terminates the sequence this client uses for {@code address} (and {@code sequenceKey}): sends
     * TerminateSequence with the last message number and forgets it. False when there was none.
     */
    public boolean terminate(String address, Object sequenceKey) throws AxisFault {
        OutboundSequence s = sequences.remove(ClientSequences.key(address, sequenceKey)).orElse(null);
        if (s == null) {
            return false;
        }
        Target target = resolve(address);
        // a replicated group orders the TerminateSequence like a request: as the sequence's next message
        Object ordered = null;
        if (target.group() != null && !target.group().wsrmOnly()) {
            ordered = new RmHeaders.SequenceHeader(s.id(), s.terminateNumbered());
        } else {
            s.terminate();
        }
        OMElement response = call(address, Wsrm.TERMINATE_SEQUENCE,
                RmBodies.identified("TerminateSequence", s.id(), s.lastMessageNumber()), null, ordered);
        RmBodies.identifier(response, "TerminateSequenceResponse");
        return true;
    }

    private OMElement call(String address, String action, OMElement body, Object backoff) throws AxisFault {
        return call(address, action, body, backoff, null);
    }

    private OMElement call(String address, String action, OMElement body, Object backoff, Object sequenceHeader)
            throws AxisFault {
        ServiceClient client = new ServiceClient(configuration, null);
        try {
            // the application may have engaged the modules on its own ServiceClient only (not in axis2.xml): the
            // protocol messages need the same out-flow (OutHandler, MulticastSender, signing)
            for (String module : new String[] {"addressing", ModuleParameters.MODULE_NAME}) {
                if (!client.getAxisService().isEngaged(module)) {
                    client.engageModule(module);
                }
            }
            Options options = new Options();
            options.setTo(new EndpointReference(address));
            options.setAction(action);
            options.setTimeOutInMilliSeconds(timeoutMillis);
            if (backoff != null) {
                options.setProperty(Backoff.PROPERTY, backoff);
            }
            if (sequenceHeader != null) {
                options.setProperty(ORDERED_TERMINATE, sequenceHeader);
            }
            client.setOptions(options);
            OMElement response = client.sendReceive(body);
            response.build();
            return response;
        } finally {
            client.cleanup();
        }
    }
}
