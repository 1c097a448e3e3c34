package org.bftws.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * The simulated network: every message is delivered after a random delay (which reorders them), unless it is lost,
 * or crosses an active partition; some are delivered twice. After the fault period it is reliable with short delays.
 */
final class SimNetwork {

    /**
     * The addresses a message to {@code d} from {@code from} goes to: nodes are 0..nodeCount-1, client k is
     * nodeCount + k ({@code clientIndex} of its name, null for a client that is gone); a message to a group of nodes
     * never goes back to its sender.
     */
    static List<Integer> addresses(int from, org.bftws.core.Destination d, org.bftws.core.Membership membership,
                                   int nodeCount, java.util.function.Function<String, Integer> clientIndex) {
        List<Integer> list = new ArrayList<>();
        if (d instanceof org.bftws.core.Destination.Node n) {
            list.add(n.id());
        } else if (d instanceof org.bftws.core.Destination.Client c) {
            Integer index = clientIndex.apply(c.id());
            if (index != null) {
                list.add(nodeCount + index);
            }
        } else {
            for (int i = 0; i < nodeCount; i++) {
                boolean wanted = d instanceof org.bftws.core.Destination.AllNodes
                        || (d instanceof org.bftws.core.Destination.AgreementNodes && membership.isAgreementNode(i))
                        || (d instanceof org.bftws.core.Destination.ExecutionNodes && !membership.isAgreementNode(i));
                if (wanted && i != from) {
                    list.add(i);
                }
            }
        }
        return list;
    }

    /** A message in flight; {@code to} is a node id, or {@link Simulation#clientAddress} for a client. */
    record Envelope(long at, long order, int from, int to, Object payload) {
    }

    private final Scenario scenario;
    private final Random rnd;
    private final PriorityQueue<Envelope> queue = new PriorityQueue<>((a, b) ->
            a.at() != b.at() ? Long.compare(a.at(), b.at()) : Long.compare(a.order(), b.order()));
    private long lost;
    private long sent;

    SimNetwork(Scenario scenario, Random rnd) {
        this.scenario = scenario;
        this.rnd = rnd;
    }

    void send(long now, int from, int to, Object payload, int extraDelay) {
        sent++;
        boolean faulty = now < scenario.faultTicks();
        if (faulty && (rnd.nextDouble() < scenario.loss() || partitioned(now, from, to))) {
            lost++;
            return;
        }
        int maxDelay = faulty ? scenario.maxDelay() : Math.min(3, scenario.maxDelay());
        queue.add(new Envelope(now + 1 + rnd.nextInt(maxDelay) + extraDelay, rnd.nextLong(), from, to, payload));
        if (faulty && rnd.nextDouble() < scenario.duplication()) {
            queue.add(new Envelope(now + 1 + rnd.nextInt(maxDelay) + extraDelay, rnd.nextLong(), from, to, payload));
        }
    }

    private boolean partitioned(long now, int from, int to) {
        for (Scenario.Partition p : scenario.partitions()) {
            if (now >= p.from() && now < p.to() && p.isolated().contains(from) != p.isolated().contains(to)) {
                return true;
            }
        }
        return false;
    }

    List<Envelope> due(long now) {
        List<Envelope> list = new ArrayList<>();
        while (!queue.isEmpty() && queue.peek().at() <= now) {
            list.add(queue.poll());
        }
        return list;
    }

    long sent() {
        return sent;
    }

    long lost() {
        return lost;
    }
}
