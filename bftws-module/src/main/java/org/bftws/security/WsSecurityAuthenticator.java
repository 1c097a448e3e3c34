package org.bftws.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.axis2.context.MessageContext;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;

/** The wssec profile in the Axis2 flows: signs outgoing envelopes, verifies incoming ones, one WsSecurity a group. */
public final class WsSecurityAuthenticator implements MessageAuthenticator {
    private final ReplicasConfig config;
    private final String self;
    private final Map<String, WsSecurity> byGroup = new ConcurrentHashMap<>();

    public WsSecurityAuthenticator(ReplicasConfig config, String self) {
        this.config = config;
        this.self = self;
    }

    /** The profile with {@code group}'s timestamp window; built on first use (loading keys costs milliseconds). */
    public WsSecurity security(GroupConfig group) {
        return byGroup.computeIfAbsent(group.service(), s -> WsSecurity.forParty(config, self, group));
    }

    /** WS-Security signatures this party made, every group together (each a public-key operation). */
    public long signaturesMade() {
        return byGroup.values().stream().mapToLong(WsSecurity::signaturesMade).sum();
    }

    @Override
    public void protect(MessageContext outgoing, GroupConfig group) throws SecurityRefusal {
        AuthenticatedParty.refuseToSignFaultToNobody(outgoing);
        security(group).signMessage(outgoing);
    }

    @Override
    public AuthenticatedParty authenticate(MessageContext incoming, GroupConfig group) throws SecurityRefusal {
        return security(group).verify(incoming);
    }
}
