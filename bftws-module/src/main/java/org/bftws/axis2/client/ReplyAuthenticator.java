package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import java.net.URI;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import org.apache.wss4j.dom.WSConstants;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeysConfig;
import org.bftws.config.NodeConfig;
import org.bftws.config.SecurityProfile;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.ProtectedParts;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.WsSecurity;
import org.bftws.security.mac.MacAuthenticator;
import org.bftws.wire.NodeDirectory;

/**
 * Decides which node of a group a reply comes from, each reply on its own (paper 3.3.1.5: the client checks every
 * replica's reply before it votes). With {@code wssec} replies to clients are WS-Security signed by the replica; with
 * {@code mac} they carry an HMAC under the key this client shares with the replica (signed when there is none). The
 * signer or MAC's sender must be the node that owns the endpoint the reply came from: a reply authenticated by any
 * other party (another replica, a client), unauthenticated, stale or tampered with is refused. With {@code none} the
 * endpoint identifies the node. Thread-safe (WsSecurity and MacAuthenticator are).
 */
final class ReplyAuthenticator {

    private final GroupConfig group;
    private final NodeDirectory directory;
    private final Map<URI, NodeConfig> byEndpoint = new HashMap<>();
    private final WsSecurity verifier;
    private final MacAuthenticator macs;

    /** A voter that accepts only WS-Security signed replies (or any, with profile none). */
    ReplyAuthenticator(GroupConfig group, KeysConfig keys) {
        this(group, keys, null);
    }

    /**
     * @param keys the deployment's keys (replicas.xml {@code <keys>}); may be null when the profile is none
     * @param macs this client's mac profile, to check MAC-authenticated replies with; null to accept only signed ones
     */
    ReplyAuthenticator(GroupConfig group, KeysConfig keys, MacAuthenticator macs) {
        this.group = group;
        this.macs = group.security().profile() == SecurityProfile.MAC ? macs : null;
        this.directory = NodeDirectory.of(group);
        group.nodes().forEach(n -> byEndpoint.put(n.serviceEndpoint(), n));
        if (!group.security().needsKeys()) {
            verifier = null;
        } else if (keys == null) {
            throw new IllegalStateException("group " + group.service() + " uses profile "
                    + group.security().profile().name().toLowerCase(Locale.ROOT) + " but replicas.xml names no"
                    + " <keys> truststore to verify its replies with");
        } else {
            char[] password = keys.storePassword().toCharArray();
            verifier = new WsSecurity(null, password, DeploymentTrust.load(keys.truststore(), password),
                    group.security().timestampTtl(), group.security().clockSkew(), ProtectedParts.defaults(),
                    WSConstants.BST_DIRECT_REFERENCE);
        }
    }

    GroupConfig group() {
        return group;
    }

    NodeDirectory directory() {
        return directory;
    }

    /** The core id of the node that serves {@code endpoint}; IllegalArgumentException when none does. */
    int nodeAt(URI endpoint) {
        NodeConfig node = byEndpoint.get(endpoint);
        if (node == null) {
            throw new IllegalArgumentException(endpoint + " is no node's endpoint in group " + group.service());
        }
        return directory.id(node.name()).orElseThrow();
    }

    /** Whether the node at {@code endpoint} executes requests (and so answers them); agreement-only nodes do not. */
    boolean executes(URI endpoint) {
        NodeConfig node = byEndpoint.get(endpoint);
        return node != null && node.role().executes();
    }

    /**
     * The core id of the node that sent {@code reply}; SecurityRefusal when the reply is not authentic or not signed
     * by the node its endpoint belongs to ({@link RefusalReason#MISDIRECTED}). An empty reply (HTTP 2xx without a body)
     * carries nothing to verify and nothing the application reads: the endpoint identifies it.
     */
    int authenticate(NodeReply reply, ReplyContent read) throws SecurityRefusal {
        int id = nodeAt(reply.node());
        if (verifier == null || reply.isEmpty()) {
            return id;
        }
        // what is checked is what was read (and is voted on): the envelope parsed with the content type's charset
        String sender = macs == null ? null : macs.authenticateReply(read.envelope(), reply.body(), read.charset(), group).orElse(null);
        if (sender == null) {
            sender = verifier.verifyAsRead(reply.body(), read.charset(), read.envelope()).name();
        }
        String owner = directory.name(id);
        if (!owner.toLowerCase(Locale.ROOT).equals(sender.toLowerCase(Locale.ROOT))) {
            throw new SecurityRefusal(RefusalReason.MISDIRECTED, "the reply from " + reply.node() + ", the endpoint"
                    + " of " + owner + ", is authenticated by " + sender);
        }
        return id;
    }
}
