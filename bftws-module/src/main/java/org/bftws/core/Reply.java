package org.bftws.core;

import java.util.Arrays;

/** An executor's reply to a client, with the view it executed in (clients learn the current view from replies). */
public record Reply(RequestId request, int view, byte[] result, int sender) implements Message {

    public Reply {
        result = result.clone();
    }

    /** A copy: messages are immutable values. */
    @Override
    public byte[] result() {
        return result.clone();
    }

    public Digest resultDigest() {
        return Digest.of(result);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Reply r && request.equals(r.request) && view == r.view && sender == r.sender
                && Arrays.equals(result, r.result);
    }

    @Override
    public int hashCode() {
        return request.hashCode() * 31 + sender;
    }

    @Override
    public String toString() {
        return "Reply(" + request + " v" + view + " " + resultDigest() + " from " + sender + ")";
    }
}
