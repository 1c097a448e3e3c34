package org.bftws.core;

import java.util.List;

/**
 * Client requests relayed by a node: answers {@link FetchRequests}, and carries a client's retransmission that an
 * agreement node of Configuration III passes to the execution nodes, which hold the replies. The adapter verifies the
 * client's own signature on each request: the relaying node cannot forge one.
 */
public record ForwardedRequests(List<Request> requests, int sender) implements Message {

    public ForwardedRequests {
        requests = List.copyOf(requests);
    }
}
