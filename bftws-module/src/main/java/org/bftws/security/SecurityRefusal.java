package org.bftws.security;

/** An incoming message failed authentication; {@link #getMessage()} is the reason a fault should carry. */
public class SecurityRefusal extends Exception {
    private static final long serialVersionUID = 1L;
    private final RefusalReason reason;

    public SecurityRefusal(RefusalReason reason, String detail, Throwable cause) {
        super("BFT-WS security refused the message: " + reason.description()
                + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"), cause);
        this.reason = reason;
    }

    public SecurityRefusal(RefusalReason reason, String detail) {
        this(reason, detail, null);
    }

    public RefusalReason reason() {
        return reason;
    }
}
