package org.bftws.bench;

import java.io.PrintStream;

/**
 * What a {@link Soak} runs against the group, and how it judges the outcome once the clients stopped: the echo
 * sample's appends ({@link AppendSoakLoad}, whose state grows with every call) or the key-value sample's transfers
 * and increments ({@link KvSoakLoad}, whose state stays the same size however long it runs, so the replicas' heap
 * shows what the module itself keeps).
 */
interface SoakLoad extends AutoCloseable {

    /** Starts {@code clients} threads calling without pause, each on its own WS-RM sequence. */
    void start(int clients);

    /** Lets every thread finish its call in progress. */
    void stop() throws InterruptedException;

    /** Calls that ended with a decided, right reply. */
    int ok();

    /** Calls that did not: a description of each, oldest first. */
    java.util.List<String> failures();

    /** What the replicas must have executed at least once every call finished: the settle target of the states. */
    int settleAtLeast();

    /**
     * Once the clients stopped and the replicas report the same state: whether each replica's state is exactly what
     * the decided calls imply (nothing lost, nothing executed twice), with a line per replica on {@code out}.
     * Returns the summary for the soak's last line ({@code exactly once}, or what broke it) and whether it holds.
     */
    Judgement judge(java.util.Map<String, EchoStateProbe.Reading> states, PrintStream out);

    record Judgement(String summary, boolean holds) {
    }

    /** Stops the threads, ends their sequences and the client node. */
    @Override
    void close() throws InterruptedException;
}
