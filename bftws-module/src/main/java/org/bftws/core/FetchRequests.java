package org.bftws.core;

import java.util.List;

/** The sender accepted a pre-prepare naming requests it never received, and asks for their bodies. */
public record FetchRequests(List<Digest> digests, int sender) implements Message {

    public FetchRequests {
        digests = List.copyOf(digests);
    }
}
