package org.bftws.security;

import java.security.cert.X509Certificate;

/**
 * Who signed a verified message: the node or client {@code name} from replicas.xml (its certificate's CN), proven
 * by a signature with the certificate the deployment's truststore registers for that name.
 */
public record AuthenticatedParty(String name, X509Certificate certificate) {
    /** MessageContext property: the party that sent a verified incoming message. */
    public static final String PROPERTY = "org.bftws.security.authenticatedParty";
}
