package org.bftws.core;

/** A request named by its id and its digest: what pre-prepares carry instead of whole requests. */
public record RequestRef(RequestId id, Digest digest) {

    @Override
    public String toString() {
        return id + "@" + digest;
    }
}
