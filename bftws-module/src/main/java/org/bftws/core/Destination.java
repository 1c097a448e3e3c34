package org.bftws.core;

/** Where a message goes. Group destinations never include the sending node itself. */
public sealed interface Destination {

    /** One node of the group. */
    record Node(int id) implements Destination {
    }

    /** Every other agreement node (PBFT's multicast). */
    record AgreementNodes() implements Destination {
    }

    /** Every other node: agreement and execution nodes (checkpoints, status). */
    record AllNodes() implements Destination {
    }

    /** The execution-only nodes of Configuration III. */
    record ExecutionNodes() implements Destination {
    }

    /** A client, named by its sequence id. */
    record Client(String id) implements Destination {
    }
}
