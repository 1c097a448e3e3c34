package org.bftws.security;

import java.security.cert.X509Certificate;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.wsdl.WSDLConstants;

/**
 * Who signed a verified message: the node or client {@code name} from replicas.xml (its certificate's CN), proven
 * by a signature with the certificate the deployment's truststore registers for that name.
 */
public record AuthenticatedParty(String name, X509Certificate certificate) {
    /** MessageContext property: the party that sent a verified incoming message. */
    public static final String PROPERTY = "org.bftws.security.authenticatedParty";

    /**
     * The party the request that {@code out} answers was authenticated as (server side); null when there is none: the
     * request failed authentication or never reached it (a builder error, the size refusal, an addressing or
     * dispatch fault), or {@code out} answers nothing.
     */
    public static AuthenticatedParty ofRequestAnswered(MessageContext out) {
        OperationContext op = out.getOperationContext();
        MessageContext request;
        try {
            request = op == null ? null : op.getMessageContext(WSDLConstants.MESSAGE_LABEL_IN_VALUE);
        } catch (AxisFault e) {
            request = null;
        }
        return request != null && request.getProperty(PROPERTY) instanceof AuthenticatedParty p ? p : null;
    }

    /**
     * Whether {@code out} is a fault a node sends for a request nobody authenticated. Such a fault goes out unsigned:
     * there is no party to MAC it for (a name the request claims is not proven, and a fault MAC'd under it would hand
     * its sender an authentic-looking answer for free), and a public-key signature would let anybody who can reach
     * the port buy the node's CPU at a signature a message (docs/operations.md, "What a refused message writes").
     */
    public static boolean isFaultToUnauthenticated(MessageContext out) {
        return out.isServerSide() && (out.getFLOW() == MessageContext.OUT_FAULT_FLOW || out.isProcessingFault())
                && ofRequestAnswered(out) == null;
    }

    /** For the profiles' protect: an unauthenticated request's fault is never signed; a caller that tries is a bug. */
    public static void refuseToSignFaultToNobody(MessageContext out) {
        if (isFaultToUnauthenticated(out)) {
            throw new IllegalStateException("BFT-WS security: refusing to sign a fault to a request nobody"
                    + " authenticated (it goes out unsigned; a signature here is public-key work anybody could buy)");
        }
    }
}
