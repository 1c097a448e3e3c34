package org.bftws.tier;

/**
 * Marks the thread that executes a replicated service's requests in total order (the Total Order Invoker): a call
 * the service makes to another group from inside that execution is a nested call, made alike by every correct
 * replica in the same order, so it travels on the group's virtual sequence with derived numbers and MessageIDs
 * (paper 3.4). Calls from any other thread stay ordinary client calls.
 */
public final class NestedCallScope {
    private static final ThreadLocal<Boolean> EXECUTING = new ThreadLocal<>();

    private NestedCallScope() {
    }

    /** Runs {@code execution} as this replica's execution of an ordered request. */
    public static <T, E extends Exception> T executing(Execution<T, E> execution) throws E {
        Boolean previous = EXECUTING.get();
        EXECUTING.set(Boolean.TRUE);
        try {
            return execution.run();
        } finally {
            if (previous == null) {
                EXECUTING.remove();
            }
        }
    }

    /** Whether this thread is executing an ordered request right now. */
    public static boolean active() {
        return EXECUTING.get() != null;
    }

    /** One execution step. */
    @FunctionalInterface
    public interface Execution<T, E extends Exception> {
        T run() throws E;
    }
}
