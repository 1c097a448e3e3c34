package org.bftws.core;

import java.util.List;

/**
 * The sender holds these requests and authenticated them itself (its entry of the client's authenticator verified,
 * or its nested-request gate admitted them): PBFT's MAC variant cannot relay a client's authenticity, so a node
 * vouches for it with its own word. Sent to every agreement node when a gated request arrives (docs/protocol.md,
 * "Requests authenticated with MACs"). Authenticated by the channel only: it counts for its receiver, as coming from
 * {@link #sender()}, and can never be relayed.
 */
public record Claim(List<RequestRef> refs, int sender) implements Message {

    public Claim {
        refs = List.copyOf(refs);
    }

    @Override
    public String toString() {
        return "Claim(" + refs.size() + "req from " + sender + ")";
    }
}
