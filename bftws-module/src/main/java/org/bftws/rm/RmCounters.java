package org.bftws.rm;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the node's RM layer did, for tests, operators and benchmarks. Every message that is dropped or refused is
 * counted here as well as logged.
 */
public final class RmCounters {
    /** Sequences of application services (PBFT traffic between replicas is counted apart). */
    public final AtomicLong sequencesCreated = new AtomicLong();
    /** Sequences other replicas opened to this replica's control service. */
    public final AtomicLong controlSequencesCreated = new AtomicLong();
    public final AtomicLong sequencesTerminated = new AtomicLong();
    public final AtomicLong accepted = new AtomicLong();
    public final AtomicLong duplicatesAnsweredFromCache = new AtomicLong();
    public final AtomicLong duplicatesJoinedPending = new AtomicLong();
    public final AtomicLong refused = new AtomicLong();
    /** Requests refused before any handler ran: not XML, or XML but not a SOAP envelope. */
    public final AtomicLong malformedRequests = new AtomicLong();
    /** Requests refused before any handler ran: larger than the most one PBFT request carries. */
    public final AtomicLong oversizedRequests = new AtomicLong();
    public final AtomicLong holdTimeouts = new AtomicLong();
    /** Held exchanges answered early with the retry-later fault because too many were held. */
    public final AtomicLong heldExchangesLetGo = new AtomicLong();
    public final AtomicLong retransmissions = new AtomicLong();
    /**
     * Client side: retry-later faults (a replica holding too many exchanges, a reply not yet available, a message
     * beyond the window) this node received; each is followed by a retransmission after the backoff, not a failure.
     */
    public final AtomicLong retryLaterReceived = new AtomicLong();
    /** Messages refused because their authenticated sender is not the party that created their sequence. */
    public final AtomicLong notSequenceOwner = new AtomicLong();
    /** New sequences refused because their party already held its limit of them (replicas.xml {@code <limits>}). */
    public final AtomicLong sequencesOverPartyLimit = new AtomicLong();
    /** Held exchanges let go because their party held its limit of them (its own oldest goes). */
    public final AtomicLong heldExchangesOverPartyLimit = new AtomicLong();

    @Override
    public String toString() {
        return "created=" + sequencesCreated + " controlCreated=" + controlSequencesCreated
                + " terminated=" + sequencesTerminated + " accepted=" + accepted
                + " cacheAnswers=" + duplicatesAnsweredFromCache + " joined=" + duplicatesJoinedPending
                + " refused=" + refused + " malformed=" + malformedRequests + " oversized=" + oversizedRequests
                + " holdTimeouts=" + holdTimeouts + " heldLetGo=" + heldExchangesLetGo + " retransmissions=" + retransmissions
                + " retryLaterReceived=" + retryLaterReceived
                + " notSequenceOwner=" + notSequenceOwner + " sequencesOverPartyLimit=" + sequencesOverPartyLimit
                + " heldOverPartyLimit=" + heldExchangesOverPartyLimit;
    }
}
