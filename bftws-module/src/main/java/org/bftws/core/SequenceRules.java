package org.bftws.core;

/**
 * What the core needs to know about client sequences beyond request ids, given by the adapter as pure functions of
 * what every replica sees alike (a request's bytes, a sequence's identifier), so that every correct node decides
 * the same at the same point of the order.
 */
public interface SequenceRules {

    /** {@link #createdAt}'s answer for a sequence whose identifier carries no creation time: it never expires. */
    long NO_CREATION_TIME = Long.MIN_VALUE;

    /** Rules under which no request ends its sequence (every sequence lives forever). */
    SequenceRules NONE = request -> false;

    /**
     * Whether executing {@code request} ends its client's sequence (a WS-RM TerminateSequence ordered as the
     * sequence's next message number): its last-reply entry is removed and nothing on the sequence executes again.
     * Must depend on the request's bytes only (its digest binds them).
     */
    boolean terminates(Request request);

    /**
     * When sequence {@code client} was created (milliseconds on the agreed clock's scale), read from its identifier
     * alone, or {@link #NO_CREATION_TIME}. A sequence with a creation time expires once idle for longer than the
     * idle limit, and a request on it without a live entry is refused unless its creation time lies within the idle
     * limit of the agreed time (docs/protocol.md, "Expiry"); one without never expires (a caller group's virtual
     * sequence, whose next request must always find its entry).
     */
    default long createdAt(String client) {
        return NO_CREATION_TIME;
    }
}
