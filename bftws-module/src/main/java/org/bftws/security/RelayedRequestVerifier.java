package org.bftws.security;

import java.time.Duration;
import org.apache.wss4j.dom.WSConstants;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.rm.Wsrm;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a client request that another replica relayed (inside a PBFT ForwardedRequests or CommittedBatch): the
 * payload is the exact bytes of the client's WS-Security signed envelope, so the client's own signature proves it,
 * whoever relays it. Returns who signed it and the WS-RM sequence position the signature covers, which names the
 * request (the core's RequestId). Freshness is not judged here: a relayed request is legitimately older than the
 * timestamp window (a fetch after a partition); duplicates are the last-reply table's business, and the first
 * replicas that received it directly checked its timestamp. Thread-safe.
 */
public final class RelayedRequestVerifier {
    /** Long enough never to matter for a request that is still being ordered or executed. */
    static final Duration NO_EXPIRY = Duration.ofDays(3650);

    private final WsSecurity verifier;

    public RelayedRequestVerifier(DeploymentTrust trust, Duration clockSkew) {
        this.verifier = new WsSecurity(null, new char[0], trust, NO_EXPIRY, clockSkew, ProtectedParts.defaults(),
                WSConstants.BST_DIRECT_REFERENCE);
    }

    /** The verifier for the nodes of {@code group}, with the deployment's truststore. */
    public static RelayedRequestVerifier forGroup(ReplicasConfig config, GroupConfig group) {
        char[] password = config.keys().storePassword().toCharArray();
        return new RelayedRequestVerifier(DeploymentTrust.load(config.keys().truststore(), password),
                group.security().clockSkew());
    }

    /** A request whose signature verified: its signer and the sequence position its signed wsrm:Sequence names. */
    public record SignedRequest(AuthenticatedParty signer, String sequenceId, long messageNumber) {
    }

    /** The {@code mac} profile's request authenticator header (security.mac's RequestAuthenticatorHeader). */
    private static final String MAC_NS = "urn:bftws:mac:1";

    /**
     * SecurityRefusal saying why when {@code envelope} is not a correctly signed request inside a WS-RM sequence.
     * Empty when the request carries a {@code mac} request authenticator instead of a signature: only the receiving
     * node's own entry can be checked, by its adapter, and a faulty client may have made that entry wrong while the
     * relayer is correct, so such a request is never a reason to refuse the message that relays it.
     */
    public java.util.Optional<SignedRequest> verify(byte[] envelope) throws SecurityRefusal {
        Document dom = DomBridge.parse(envelope);
        if (hasRequestAuthenticator(dom)) {
            return java.util.Optional.empty();
        }
        AuthenticatedParty signer = verifier.verify(dom);
        // ProtectedParts made the verifier demand that every WS-RM header is signed in place, so this one is
        Element sequence = sequenceHeader(dom);
        String id = childText(sequence, "Identifier");
        String number = childText(sequence, "MessageNumber");
        try {
            return java.util.Optional.of(new SignedRequest(signer, id, Long.parseLong(number)));
        } catch (NumberFormatException e) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "wsrm:MessageNumber '" + number + "' is not a number");
        }
    }

    private static boolean hasRequestAuthenticator(Document dom) {
        for (Node h = dom.getDocumentElement().getFirstChild(); h != null; h = h.getNextSibling()) {
            if (h instanceof Element header && "Header".equals(header.getLocalName())) {
                for (Node n = header.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && MAC_NS.equals(e.getNamespaceURI())
                            && "RequestAuthenticator".equals(e.getLocalName())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static Element sequenceHeader(Document dom) throws SecurityRefusal {
        Element found = null;
        Element root = dom.getDocumentElement();
        for (Node h = root.getFirstChild(); h != null; h = h.getNextSibling()) {
            if (h instanceof Element header && "Header".equals(header.getLocalName())) {
                for (Node n = header.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element e && Wsrm.NS.equals(e.getNamespaceURI())
                            && "Sequence".equals(e.getLocalName())) {
                        if (found != null) {
                            throw new SecurityRefusal(RefusalReason.MALFORMED, "two wsrm:Sequence headers");
                        }
                        found = e;
                    }
                }
            }
        }
        if (found == null) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "the request has no wsrm:Sequence header, so it names"
                    + " no request id");
        }
        return found;
    }

    private static String childText(Element parent, String local) throws SecurityRefusal {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && Wsrm.NS.equals(e.getNamespaceURI()) && local.equals(e.getLocalName())) {
                return e.getTextContent().trim();
            }
        }
        throw new SecurityRefusal(RefusalReason.MALFORMED, "wsrm:Sequence has no wsrm:" + local);
    }
}
