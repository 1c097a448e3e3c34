package org.bftws.ordering;

import org.bftws.core.Output;

/**
 * Where the {@link TotalOrderManager} hands what the service must carry out (executions, checkpoints, state installs,
 * read-only requests), in the core's order: the Total Order Invoker's queue. Called under the manager's lock, so it
 * only enqueues.
 */
public interface ExecutionQueue {
    void enqueue(Output o);
}
