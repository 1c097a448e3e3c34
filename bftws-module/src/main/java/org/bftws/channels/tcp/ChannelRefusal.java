package org.bftws.channels.tcp;

/** A connection or frame the binary channel refuses: the reason (counted) and what exactly was wrong (logged). */
final class ChannelRefusal extends Exception {
    private static final long serialVersionUID = 1L;

    private final Refusal reason;

    ChannelRefusal(Refusal reason, String detail) {
        super(reason.text() + ": " + detail, null, false, false); // no stack trace: it is an expected event
        this.reason = reason;
    }

    Refusal reason() {
        return reason;
    }
}
