package org.bftws.rm;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RM source state of one sequence: message numbers handed out, and which destinations acknowledged which numbers.
 * With a group endpoint one sequence is a virtual sequence to every replica (paper 3.3.1.2), so acknowledgements are
 * kept per destination and a message is settled only when every destination acknowledged it. Thread-safe.
 */
public final class OutboundSequence {

    private final String id;
    private final String clientUuid;
    private final Map<String, AckRanges> ackedBy = new HashMap<>();
    private long lastNumber;
    private boolean terminated;
    /** The number of a TerminateSequence that was numbered as the next message (0 when none was). */
    private long terminateNumber;

    public OutboundSequence(String id, String clientUuid) {
        this.id = id;
        this.clientUuid = clientUuid;
    }

    public String id() {
        return id;
    }

    /** The UUID this client put in CreateSequence (the sequence ID was derived from it). */
    public String clientUuid() {
        return clientUuid;
    }

    /** The next message number, from 1. */
    public synchronized long nextMessageNumber() {
        if (terminated) {
            throw new IllegalStateException("sequence " + id + " was terminated");
        }
        if (lastNumber == Long.MAX_VALUE) {
            throw new IllegalStateException("sequence " + id + " has used every message number");
        }
        return ++lastNumber;
    }

    /**
     * Continues numbering after {@code last}: the next message number is {@code last + 1}. For a caller group's
     * virtual sequence (paper 3.4), whose numbering is part of the group's replicated state: a replica that installs
     * a checkpoint takes the group's count from it. Acknowledgements of numbers above {@code last} are forgotten
     * (they were for messages this replica numbered differently from the group).
     */
    public synchronized void resumeAfter(long last) {
        if (last < 0) {
            throw new IllegalArgumentException("message numbers start at 1; cannot resume after " + last);
        }
        lastNumber = last;
        ackedBy.values().forEach(acks -> acks.removeAbove(last));
    }

    /** The highest message number handed out (0 before the first). */
    public synchronized long lastMessageNumber() {
        return lastNumber;
    }

    /** Records a wsrm:SequenceAcknowledgement from {@code destination}. */
    public synchronized void acknowledged(String destination, List<AckRanges.Range> ranges) {
        AckRanges acks = ackedBy.computeIfAbsent(destination, d -> new AckRanges());
        for (AckRanges.Range r : ranges) {
            if (r.upper() > Math.max(lastNumber, terminateNumber)) {
                throw new IllegalArgumentException(destination + " acknowledged message " + r.upper() + " of sequence "
                        + id + " that was never sent (last is " + lastNumber + ")");
            }
            acks.addRange(r);
        }
    }

    public synchronized boolean isAcknowledged(String destination, long n) {
        AckRanges acks = ackedBy.get(destination);
        return acks != null && acks.contains(n);
    }

    /** True when every one of {@code destinations} acknowledged message {@code n}: it may be discarded. */
    public synchronized boolean isSettled(long n, Set<String> destinations) {
        return destinations.stream().allMatch(d -> isAcknowledged(d, n));
    }

    public synchronized void terminate() {
        terminated = true;
    }

    /**
     * Terminates the sequence with a TerminateSequence that is numbered as its next message, as a replicated group
     * orders it like a request; returns that number. The replicas' acknowledgements of it are then valid (they
     * acknowledge the number they executed).
     */
    public synchronized long terminateNumbered() {
        terminated = true;
        terminateNumber = lastNumber + 1;
        return terminateNumber;
    }

    public synchronized boolean isTerminated() {
        return terminated;
    }
}
