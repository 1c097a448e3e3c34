package org.bftws.core;

/**
 * A client request as the replicas order it. The payload is opaque to the core: the adapter passes the bytes the
 * client signed, so every replica that received the same request computes the same digest, and a replica can relay
 * the request to another one that verifies the client's signature itself.
 */
public final class Request {

    private final RequestId id;
    private final byte[] payload;
    private final Digest digest;

    public Request(RequestId id, byte[] payload) {
        this(id, payload.clone(), true);
    }

    private Request(RequestId id, byte[] payload, boolean owned) {
        this.id = id;
        this.payload = payload;
        this.digest = Digest.builder().add(id.client()).add(id.number()).add(payload).build();
    }

    /**
     * A request over {@code payload} itself rather than a copy, for adapters that hand over bytes nobody changes again
     * (a request's captured bytes, a decoded message's): a replica then keeps one copy of each request's bytes.
     */
    public static Request over(RequestId id, byte[] payload) {
        return new Request(id, payload, true);
    }

    public RequestId id() {
        return id;
    }

    public byte[] payload() {
        return payload.clone();
    }

    public int size() {
        return payload.length;
    }

    /** Binds the id to the content: two requests with one id but different payloads have different digests. */
    public Digest digest() {
        return digest;
    }

    public RequestRef ref() {
        return new RequestRef(id, digest);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Request r && digest.equals(r.digest);
    }

    @Override
    public int hashCode() {
        return digest.hashCode();
    }

    @Override
    public String toString() {
        return id + "@" + digest;
    }
}
