package org.bftws.ordering;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.bftws.core.Output;

/**
 * The one queue between the {@link TotalOrderManager} and the thread that carries out what the core decides (the
 * Total Order Invoker): executions, checkpoints, state installs, in the core's order, with the invoker's own tasks
 * (read-only requests) in order among them. The manager only enqueues, under its lock; the invoker takes. Both are
 * built around it, so neither needs the other at construction (as etcd's raft node hands its Ready through a channel).
 */
public final class ExecutionQueue {
    private final BlockingQueue<Object> work = new LinkedBlockingQueue<>();

    /** The manager, under its lock: an output of the core for the invoker. */
    public void enqueue(Output o) {
        work.add(o);
    }

    /** The invoker's own task (a read-only request), carried out after what is queued now. */
    public void enqueueTask(Object task) {
        work.add(task);
    }

    /** The next output or task, waiting for one. */
    public Object take() throws InterruptedException {
        return work.take();
    }

    public int size() {
        return work.size();
    }
}
