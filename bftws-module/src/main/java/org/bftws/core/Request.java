package org.bftws.core;

/**
 * A client request as the replicas order it. The payload is opaque to the core: the adapter passes the bytes the
 * client signed, so every replica that received the same request computes the same digest, and a replica can relay
 * the request to another one that verifies the client's signature itself.
 *
 * <p>A request whose copies legitimately differ in their bytes is named by its identity instead
 * ({@link #identified}): a caller group's nested request reaches every callee replica once per caller replica, each
 * copy signed by its own sender, and correct copies agree on everything else. Its digest covers the identity (what
 * correct copies share), so callee replicas that admitted different copies name the same request; any copy's bytes
 * serve as its payload.
 */
public final class Request {

    private final RequestId id;
    private final byte[] payload;
    private final Digest digest;

    public Request(RequestId id, byte[] payload) {
        this(id, payload.clone(), true);
    }

    private Request(RequestId id, byte[] payload, boolean owned) {
        this(id, payload, Digest.builder().add(id.client()).add(id.number()).add(payload).build());
    }

    private Request(RequestId id, byte[] payload, Digest digest) {
        this.id = id;
        this.payload = payload;
        this.digest = digest;
    }

    /**
     * A request named by {@code identity}, what every correct copy of it shares, rather than by its bytes: copies with
     * the same identity are the same request whatever else differs in their bytes. {@code payload} is used as is.
     */
    public static Request identified(RequestId id, byte[] payload, byte[] identity) {
        return new Request(id, payload, identityDigest(id, identity));
    }

    /** This request's bytes named by {@code identity} (see {@link #identified}). */
    public Request identifiedBy(byte[] identity) {
        return new Request(id, payload, identityDigest(id, identity));
    }

    /** The digest of the request with this id and {@code identity} (see {@link #identified}). */
    public static Digest identityDigest(RequestId id, byte[] identity) {
        // the tag keeps it apart from every digest over bytes: those have no field after the payload
        return Digest.builder().add(id.client()).add(id.number()).add(IDENTITY_TAG).add(identity).build();
    }

    private static final String IDENTITY_TAG = "identity";

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
