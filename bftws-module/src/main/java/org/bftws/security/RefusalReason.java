package org.bftws.security;

import javax.xml.namespace.QName;

/**
 * Why an incoming message was refused. Each reason maps to the WS-Security 1.1 fault code a SOAP peer expects and
 * to a sentence that says what was wrong, which becomes the fault's reason text.
 */
public enum RefusalReason {
    UNSIGNED("InvalidSecurity", "unsigned: the message carries no WS-Security signature"),
    NO_TIMESTAMP("InvalidSecurity", "no timestamp: the message carries no signed wsu:Timestamp, so its freshness"
            + " cannot be judged"),
    TAMPERED("FailedCheck", "tampered: the signature does not verify, the message was changed after it was signed"),
    UNTRUSTED("FailedAuthentication", "untrusted certificate: the signer's certificate was not issued by this"
            + " deployment's CA or is not the certificate registered for its name"),
    STALE("MessageExpired", "stale: the wsu:Timestamp has expired or was created too far in the future"),
    NOT_COVERED("FailedCheck", "not covered by the signature (possible signature wrapping)"),
    WEAK_ALGORITHM("UnsupportedAlgorithm", "weak or unsupported algorithm"),
    MALFORMED("InvalidSecurity", "malformed security header"),
    // the mac profile (org.bftws.security.mac)
    MAC_MISMATCH("FailedCheck", "MAC mismatch: the authenticator does not verify under the key shared with its"
            + " claimed sender, so the message was changed or not sent by that node"),
    MISDIRECTED("FailedCheck", "misdirected: the authenticator names another receiver, or another sender than"
            + " this exchange was with"),
    MALFORMED_PBFT("InvalidSecurity", "malformed PBFT messages: the body's pbft:Messages cannot be decoded, so what"
            + " the MAC covers cannot be computed"),
    UNKNOWN_PEER("FailedAuthentication", "unknown peer: the message names a sender that is not a node of this group"
            + " or shares no key with this node"),
    // embedded signatures of PBFT messages (the wire package's ProofVerifier)
    UNSIGNED_PROOF("InvalidSecurity", "unsigned proof: a PBFT message that travels as proof or is relayed carries no"
            + " signature of its sender"),
    FORGED_PROOF("FailedCheck", "forged proof: an embedded or relayed message does not verify as signed by its"
            + " claimed sender"),
    NOT_FROM_SENDER("FailedAuthentication", "relayed: a message that only its own sender may send (it carries no"
            + " signature a third node could check) arrived from another node");

    /** WS-Security 1.0 namespace of the standard fault codes. */
    public static final String WSSE_NS =
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

    private final String faultCode;
    private final String description;

    RefusalReason(String faultCode, String description) {
        this.faultCode = faultCode;
        this.description = description;
    }

    public QName faultCode() {
        return new QName(WSSE_NS, faultCode, "wsse");
    }

    /** The reason's short name: its description up to the colon, if any (e.g. "unsigned", "MAC mismatch"). */
    public String shortName() {
        int colon = description.indexOf(':');
        return colon < 0 ? description : description.substring(0, colon);
    }

    /** The sentence that opens the fault reason, e.g. "tampered: the signature does not verify, ...". */
    public String description() {
        return description;
    }
}
