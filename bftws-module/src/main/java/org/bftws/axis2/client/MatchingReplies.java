package org.bftws.axis2.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Accepts a reply once {@code needed} distinct nodes returned byte-identical SOAP bodies (the body is compared,
 * not the envelope: headers such as acknowledgements and signatures legitimately differ between replicas). This
 * is the paper's f+1 rule; the client Voter may replace it with a canonicalising comparison.
 */
public final class MatchingReplies implements ReplyCollector {

    private final int needed;
    private final int nodes;
    private final Map<String, List<NodeReply>> byBody = new HashMap<>();
    private final Set<URI> finished = new HashSet<>();
    private final List<String> failures = new ArrayList<>();
    private NodeReply decided;

    public MatchingReplies(int needed, int nodes) {
        this.needed = needed;
        this.nodes = nodes;
    }

    @Override
    public synchronized void offer(NodeReply reply) {
        if (!finished.add(reply.node()) || decided != null) {
            return;
        }
        List<NodeReply> same = byBody.computeIfAbsent(SoapBodies.key(reply), k -> new ArrayList<>());
        same.add(reply);
        if (same.size() >= needed) {
            decided = same.get(0);
        }
        notifyAll();
    }

    @Override
    public synchronized void failed(URI node, String why) {
        if (finished.add(node)) {
            failures.add(node + ": " + why);
        }
        notifyAll();
    }

    @Override
    public synchronized NodeReply await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (decided == null && finished.size() < nodes) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return decided;
    }

    @Override
    public synchronized String whyUndecided() {
        return "no " + needed + " matching replies among " + byBody.values().stream().mapToInt(List::size).sum()
                + " received; failures: " + failures;
    }
}
