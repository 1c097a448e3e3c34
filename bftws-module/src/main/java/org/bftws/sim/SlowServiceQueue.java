package org.bftws.sim;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.bftws.core.Output;

/**
 * A schedule's slow service ({@link Scenario.SlowService}): its node's service work (executions, checkpoint states,
 * installations) waits its turn here, in order, as on a replica's invoker thread; one piece runs every
 * {@code ticks} ticks during the fault period, and whatever still waits runs at once after it.
 */
final class SlowServiceQueue {
    private final Scenario.SlowService slow;
    private final int faultTicks;
    private final ArrayDeque<Output> waiting = new ArrayDeque<>();
    /** The tick before which the service is still busy with its last piece of work. */
    private long busyUntil;

    SlowServiceQueue(Scenario scenario) {
        this.slow = scenario.slow();
        this.faultTicks = scenario.faultTicks();
    }

    static boolean isServiceWork(Output o) {
        return o instanceof Output.Execute || o instanceof Output.TakeCheckpoint || o instanceof Output.InstallState;
    }

    /**
     * Queues node {@code i}'s piece of service work if it must wait (the node's service is slow now, or earlier work
     * still waits); false when it runs now.
     */
    boolean queued(int i, Output work, long now) {
        if (slow.node() != i || (now >= faultTicks && waiting.isEmpty())) {
            return false;
        }
        waiting.add(work);
        return true;
    }

    /** Runs what is due at {@code now}, in order; a piece's outputs may queue more work behind what waits. */
    void runDue(long now, boolean nodeDown, Consumer<Output> run) {
        if (!slow.on() || nodeDown) {
            return;
        }
        while (!waiting.isEmpty() && (now >= faultTicks || now >= busyUntil)) {
            busyUntil = now + slow.ticks();
            run.accept(waiting.poll());
            if (now < faultTicks) {
                return;
            }
        }
    }

    /** Node {@code i}'s process died: its service's queue went with it. */
    void processDied(int i) {
        if (slow.node() == i) {
            waiting.clear();
        }
    }
}
