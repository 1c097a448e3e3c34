package org.bftws.core;

/**
 * Identifies a client request: the client is its WS-RM sequence ID, the number its WS-RM message number (from 1,
 * contiguous). A correct client has at most one request per number.
 */
public record RequestId(String client, long number) implements Comparable<RequestId> {

    public RequestId {
        if (client == null || client.isEmpty()) {
            throw new IllegalArgumentException("a request needs a client (sequence) id");
        }
        if (number < 1) {
            throw new IllegalArgumentException("message numbers start at 1, got " + number);
        }
    }

    @Override
    public int compareTo(RequestId o) {
        int c = client.compareTo(o.client);
        return c != 0 ? c : Long.compare(number, o.number);
    }

    @Override
    public String toString() {
        return client + "#" + number;
    }
}
