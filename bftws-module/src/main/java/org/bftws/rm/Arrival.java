package org.bftws.rm;

/** What the RM destination makes of an arriving application message (see {@link InboundSequence#accept}). */
public enum Arrival {
    /** First copy, within the window: queue it for delivery. */
    NEW,
    /** Seen before and already delivered: answer from the reply cache, re-acknowledge, never execute again. */
    DUPLICATE_DELIVERED,
    /** Seen before and still waiting for delivery: the new copy waits for the same reply. */
    DUPLICATE_PENDING,
    /** The sequence was closed: new messages are refused (wsrm:SequenceClosed). */
    CLOSED,
    /** Too far ahead of the next message to deliver: refused so buffered messages stay bounded; resend later. */
    BEYOND_WINDOW
}
