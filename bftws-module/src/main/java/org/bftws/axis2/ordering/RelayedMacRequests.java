package org.bftws.axis2.ordering;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.config.GroupConfig;
import org.bftws.core.Request;
import org.bftws.security.SecurityRefusal;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.security.mac.MacAuthenticator;
import org.bftws.wire.ProofVerifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * mac profile: whether a client request another replica relayed (its exact bytes, in a PBFT ForwardedRequests) is
 * authenticated at this replica. It is when this replica's entry of the request's authenticator verifies, the
 * authenticator names the request's WS-RM position, and its client may send on that sequence; a WS-Security signed
 * request (a client without MAC keys) was verified already on arrival ({@link ProofVerifier}). Anything else is only a
 * body here: it serves a slot that f+1 nodes vouch for, and is never ordered on the relayer's word.
 */
final class RelayedMacRequests {
    private static final Logger LOG = LoggerFactory.getLogger(RelayedMacRequests.class);

    private final ConfigurationContext context;
    private final GroupConfig group;
    private final ProofVerifier.SequenceUse users;

    RelayedMacRequests(ConfigurationContext context, GroupConfig group, ProofVerifier.SequenceUse users) {
        this.context = context;
        this.group = group;
        this.users = users;
    }

    boolean authenticatedHere(Request r) {
        MacAuthenticator mac = SecurityRuntime.of(context).macProfile().orElse(null);
        if (mac == null) {
            return false;
        }
        try {
            return mac.authenticateRelayed(r.payload(), group)
                    .map(a -> a.sequenceId().equals(r.id().client()) && a.messageNumber() == r.id().number()
                            && users.mayUse(a.sequenceId(), a.client()))
                    .orElse(true); // signed: the signature was checked when the relaying message arrived
        } catch (SecurityRefusal e) {
            LOG.debug("relayed request {} is a body only here: {}", r.id(), e.getMessage());
            return false;
        }
    }
}
