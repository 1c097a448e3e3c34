package org.bftws.core;

/**
 * What the core needs to know about client sequences beyond request ids, given by the adapter as pure functions of
 * what every replica sees alike (a request's bytes, a sequence's identifier), so that every correct node decides
 * the same at the same point of the order.
 */
public interface SequenceRules {

    /** Rules under which no request ends its sequence (every sequence lives forever). */
    SequenceRules NONE = request -> false;

    /**
     * Whether executing {@code request} ends its client's sequence (a WS-RM TerminateSequence ordered as the
     * sequence's next message number): its last-reply entry is removed and nothing on the sequence executes again.
     * Must depend on the request's bytes only (its digest binds them).
     */
    boolean terminates(Request request);
}
