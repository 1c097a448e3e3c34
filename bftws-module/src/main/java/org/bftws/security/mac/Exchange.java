package org.bftws.security.mac;

import java.net.URI;
import java.net.URISyntaxException;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.config.ClientConfig;
import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.security.AuthenticatedParty;

/**
 * Which peer node a message is exchanged with, from this node's point of view: the receiver of an outgoing request
 * is the node whose endpoint it is addressed to; the receiver of a response is the node whose request it answers
 * (as that request was authenticated); the sender of an incoming response must be the node the request went to.
 * Null means the other party is not a peer node (a client, another group, an unauthenticated request); replies to
 * clients are the one other MAC-authenticated exchange ({@link #clientAnswered}).
 */
final class Exchange {
    private Exchange() {
    }

    /** The peer node an outgoing message goes to, or null. */
    static String receiverOf(MessageContext out, GroupConfig group, String self) {
        if (!isNode(group, self)) {
            return null;
        }
        String peer;
        if (out.isServerSide()) {
            MessageContext request = related(out, WSDLConstants.MESSAGE_LABEL_IN_VALUE);
            Object party = request == null ? null : request.getProperty(AuthenticatedParty.PROPERTY);
            peer = party instanceof AuthenticatedParty p ? nodeNamed(group, p.name()) : null;
        } else {
            peer = nodeAt(group, out.getTo());
        }
        return peer == null || peer.equalsIgnoreCase(self) ? null : peer;
    }

    /**
     * The client an outgoing response answers (server side, to a request that client's signature authenticated), as
     * {@code config} spells it; null for anything else.
     */
    static String clientAnswered(MessageContext out, ReplicasConfig config) {
        if (!out.isServerSide()) {
            return null;
        }
        MessageContext request = related(out, WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        Object party = request == null ? null : request.getProperty(AuthenticatedParty.PROPERTY);
        return party instanceof AuthenticatedParty p ? clientNamed(config, p.name()) : null;
    }

    /**
     * The config's spelling of {@code name} as a party that sends requests to {@code group}: a client of the
     * deployment, or an execution node of a group that calls {@code group} (its nested requests, paper 3.4); null
     * for anybody else.
     */
    static String requesterOf(ReplicasConfig config, GroupConfig group, String name) {
        String client = clientNamed(config, name);
        if (client != null || name == null) {
            return client;
        }
        for (GroupConfig caller : config.callersOf(group)) {
            for (NodeConfig n : caller.executionNodes()) {
                if (n.name().equalsIgnoreCase(name)) {
                    return n.name();
                }
            }
        }
        return null;
    }

    /**
     * The replicas of the caller group an outgoing response answers (server side, to a nested request a caller
     * replica of {@code group} authenticated): every one of them, since they all sent the request and the one reply
     * answers them all; empty for anything else.
     */
    static java.util.List<String> callerReplicasAnswered(MessageContext out, ReplicasConfig config, GroupConfig group) {
        if (!out.isServerSide()) {
            return java.util.List.of();
        }
        MessageContext request = related(out, WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        Object party = request == null ? null : request.getProperty(AuthenticatedParty.PROPERTY);
        if (!(party instanceof AuthenticatedParty p)) {
            return java.util.List.of();
        }
        for (GroupConfig caller : config.callersOf(group)) {
            if (caller.executionNodes().stream().anyMatch(n -> n.name().equalsIgnoreCase(p.name()))) {
                return caller.executionNodes().stream().map(NodeConfig::name).toList();
            }
        }
        return java.util.List.of();
    }

    /** The config's spelling of client {@code name}, or null when the deployment has no such client. */
    static String clientNamed(ReplicasConfig config, String name) {
        return config.clients().stream().map(ClientConfig::name).filter(n -> n.equalsIgnoreCase(name)).findFirst()
                .orElse(null);
    }

    /** For a response this node receives, the node its request went to; null for anything else. */
    static String expectedSenderOf(MessageContext in, GroupConfig group) {
        if (in.isServerSide()) {
            return null;
        }
        MessageContext request = related(in, WSDLConstants.MESSAGE_LABEL_OUT_VALUE);
        return request == null ? null : nodeAt(group, request.getTo());
    }

    static boolean isNode(GroupConfig group, String name) {
        return name != null && nodeNamed(group, name) != null;
    }

    /** The config's spelling of node {@code name} of {@code group} (names are unique ignoring case), or null. */
    static String nodeNamed(GroupConfig group, String name) {
        return group.nodes().stream().map(NodeConfig::name).filter(n -> n.equalsIgnoreCase(name)).findFirst()
                .orElse(null);
    }

    private static String nodeAt(GroupConfig group, EndpointReference to) {
        if (to == null || to.getAddress() == null) {
            return null;
        }
        URI address;
        try {
            address = new URI(to.getAddress());
        } catch (URISyntaxException e) {
            return null;
        }
        return group.nodes().stream().filter(n -> address.equals(n.controlEndpoint())
                || address.equals(n.serviceEndpoint())).map(NodeConfig::name).findFirst().orElse(null);
    }

    private static MessageContext related(MessageContext mc, String label) {
        OperationContext op = mc.getOperationContext();
        if (op == null) {
            return null;
        }
        try {
            return op.getMessageContext(label);
        } catch (AxisFault e) {
            return null;
        }
    }
}
