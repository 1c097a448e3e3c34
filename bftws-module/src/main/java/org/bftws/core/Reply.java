package org.bftws.core;

import java.util.Arrays;

/**
 * An executor's reply to a client, with the view it executed in (clients learn the current view from replies).
 * {@code tentative}: executed once its batch prepared, before it committed (PBFT's tentative execution); a client
 * accepts such a result only from 2f+1 executors of one view, or once f+1 answer it committed ({@link Voter}).
 */
public record Reply(RequestId request, int view, byte[] result, int sender, boolean tentative) implements Message {

    public Reply {
        result = result.clone();
    }

    /** A reply to a committed execution (or from the last-reply table). */
    public Reply(RequestId request, int view, byte[] result, int sender) {
        this(request, view, result, sender, false);
    }

    /** A copy: messages are immutable values. */
    @Override
    public byte[] result() {
        return result.clone();
    }

    /** {@link #sequenceEnded} reason: the sequence's TerminateSequence executed. */
    public static final String TERMINATED = "terminated";
    /** {@link #sequenceEnded} reason: the sequence was idle (or created) longer than the idle limit ago. */
    public static final String EXPIRED = "expired";
    /** {@link #sequenceEnded} reason: the sequence's creation time lies more than the idle limit ahead. */
    public static final String NOT_YET_VALID = "not-yet-valid";

    /**
     * The result every correct executor sends for a request on a sequence that ended ({@code why}: "terminated"):
     * the request is not executed. It starts with a NUL byte, which no XML reply body (the adapter's results) and
     * no application result of the simulator begins with, so it cannot be mistaken for a service's reply.
     */
    public static byte[] sequenceEnded(String why) {
        return ("\0bftws:sequence-ended:" + why).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Why the sequence ended, when {@code result} is a {@link #sequenceEnded} result; else empty. */
    public static java.util.Optional<String> endedReason(byte[] result) {
        String prefix = "\0bftws:sequence-ended:";
        if (result.length < prefix.length() || result[0] != 0) {
            return java.util.Optional.empty();
        }
        String text = new String(result, java.nio.charset.StandardCharsets.UTF_8);
        return text.startsWith(prefix) ? java.util.Optional.of(text.substring(prefix.length()))
                : java.util.Optional.empty();
    }

    public Digest resultDigest() {
        return Digest.of(result);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Reply r && request.equals(r.request) && view == r.view && sender == r.sender
                && tentative == r.tentative && Arrays.equals(result, r.result);
    }

    @Override
    public int hashCode() {
        return request.hashCode() * 31 + sender;
    }

    @Override
    public String toString() {
        return "Reply(" + request + " v" + view + " " + resultDigest() + " from " + sender
                + (tentative ? ", tentative" : "") + ")";
    }
}
