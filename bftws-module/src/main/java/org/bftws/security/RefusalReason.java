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
    MALFORMED("InvalidSecurity", "malformed security header");

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

    /** The sentence that opens the fault reason, e.g. "tampered: the signature does not verify, ...". */
    public String description() {
        return description;
    }
}
