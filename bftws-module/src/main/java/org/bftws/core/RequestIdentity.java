package org.bftws.core;

/**
 * How a node names a request it holds as bytes from elsewhere (a relayed body, a committed batch, its journal): by the
 * bytes ({@link #BYTES}, every request of a client that sends one copy to every replica), or by what every correct
 * copy shares ({@link Request#identified}: a caller group's nested request, sent once by each caller replica under its
 * own signature). Every node of a group must name each request alike, and a name must follow from the bytes alone,
 * so that a body from anyone is checked against the name the agreement gave it.
 */
@FunctionalInterface
public interface RequestIdentity {

    /** Every request named by its bytes. */
    RequestIdentity BYTES = received -> received;

    /** {@code received} (named by its bytes) as this node names it: itself, or its bytes under another name. */
    Request identify(Request received);
}
