package org.bftws.security;

import org.apache.axis2.context.MessageContext;
import org.bftws.config.GroupConfig;

/**
 * One message authentication profile as {@link SecurityHandler} drives it: {@code wssec} ({@link
 * WsSecurityAuthenticator}) and {@code mac} ({@code security.mac.MacAuthenticator}), which
 * {@link SecurityRuntime} registers for a party with keys; others with
 * {@link SecurityRuntime#register(org.bftws.config.SecurityProfile, MessageAuthenticator)}.
 */
public interface MessageAuthenticator {

    /** Protects an outgoing message of {@code group}'s traffic; may replace the message's envelope. */
    void protect(MessageContext outgoing, GroupConfig group) throws SecurityRefusal;

    /** Who sent {@code incoming}; SecurityRefusal (with the reason a fault will carry) when it is not authentic. */
    AuthenticatedParty authenticate(MessageContext incoming, GroupConfig group) throws SecurityRefusal;
}
