package org.bftws.rm;

import java.util.List;

/**
 * RM destination state of one sequence: which message numbers arrived (for acknowledgements and duplicate
 * detection), how far delivery got (delivery is in order, so a single number), and whether it was closed.
 * Thread-safe: HTTP workers accept messages while the delivery thread marks them delivered.
 *
 * @see InboundSequences
 */
public final class InboundSequence {

    /** Snapshot for a wsrm:SequenceAcknowledgement; {@code closed} becomes wsrm:Final. */
    public record Acknowledgement(String sequenceId, List<AckRanges.Range> ranges, boolean closed) {
    }

    private final String id;
    private final String clientUuid;
    private final String offeredId;
    /** Taken on for a request without this node's CreateSequence ({@link InboundSequences#adopt}). */
    private final boolean adopted;
    private final String service;
    private final long window;
    private final AckRanges received = new AckRanges();
    private long delivered;
    private boolean closed;

    InboundSequence(String id, String clientUuid, String offeredId, String service, long window, boolean adopted) {
        this.adopted = adopted;
        this.id = id;
        this.clientUuid = clientUuid;
        this.offeredId = offeredId;
        this.service = service;
        this.window = window;
    }

    public String id() {
        return id;
    }

    /**
     * This node took the sequence on for a request, never having seen its CreateSequence (or having forgotten it):
     * what it delivered before, if anything, it does not know.
     */
    public boolean adopted() {
        return adopted;
    }

    /** The UUID the client put in CreateSequence, or null when it sent none. */
    public String clientUuid() {
        return clientUuid;
    }

    /** The sequence the client offered for replies (wsrm:Offer) and this destination accepted, or null. */
    public String offeredId() {
        return offeredId;
    }

    /** The Axis2 service the sequence was created for. */
    public String service() {
        return service;
    }

    /** Records the arrival of message {@code n} and says what to do with it. */
    public synchronized Arrival accept(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("message numbers start at 1, got " + n);
        }
        if (received.contains(n)) {
            return n <= delivered ? Arrival.DUPLICATE_DELIVERED : Arrival.DUPLICATE_PENDING;
        }
        if (closed) {
            return Arrival.CLOSED;
        }
        if (n > delivered + window) {
            return Arrival.BEYOND_WINDOW;
        }
        received.add(n);
        return Arrival.NEW;
    }

    /** What {@link #accept} would answer, without recording anything: the early duplicate check. */
    public synchronized Arrival peek(long n) {
        if (received.contains(n)) {
            return n <= delivered ? Arrival.DUPLICATE_DELIVERED : Arrival.DUPLICATE_PENDING;
        }
        return closed ? Arrival.CLOSED : n > delivered + window ? Arrival.BEYOND_WINDOW : Arrival.NEW;
    }

    /**
     * Message {@code n} was delivered to the service; delivery is in order, so {@code n} must be the next one. It
     * counts as received even if this node never saw it (in BFT mode the body may have come from another replica).
     */
    public synchronized void delivered(long n) {
        if (n != delivered + 1) {
            throw new IllegalStateException("sequence " + id + ": delivering message " + n + " but the next in order is "
                    + (delivered + 1));
        }
        received.add(n);
        delivered = n;
    }

    /**
     * BFT mode: the group executed everything up to {@code n} (this replica may have missed some of it, and may have
     * learnt it from a transferred checkpoint): all of it counts as received and delivered. Never moves back.
     */
    public synchronized void deliveredThrough(long n) {
        if (n > delivered) {
            received.addRange(new AckRanges.Range(delivered + 1, n));
            delivered = n;
        }
    }

    /**
     * Message {@code n} was processed as it arrived, whatever its position (PBFT control messages: the protocol
     * needs no order among them). Delivery advances over every contiguous processed number, so the window moves.
     */
    public synchronized void processedOnArrival(long n) {
        received.add(n);
        while (received.contains(delivered + 1)) {
            delivered++;
        }
    }

    /** Highest message number delivered so far (0 before the first). */
    public synchronized long deliveredUpTo() {
        return delivered;
    }

    public synchronized boolean isReceived(long n) {
        return received.contains(n);
    }

    /** CloseSequence: no further messages are accepted; the acknowledgement becomes final. */
    public synchronized void close() {
        closed = true;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    public synchronized Acknowledgement acknowledgement() {
        return new Acknowledgement(id, received.ranges(), closed);
    }
}
