package org.bftws.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Which correct nodes' services hold the effects of a tentative execution that is not settled yet. A read-only
 * request reaching such a node waits until the state is committed again (PBFT answers reads from committed state
 * only): the tentative run is kept, or an installation (the rollback's set_state, or a state transfer) replaced it.
 */
final class TentativeWindows {

    private final boolean[] open;
    private final List<List<Runnable>> waiting = new ArrayList<>();

    TentativeWindows(int nodes) {
        open = new boolean[nodes];
        for (int i = 0; i < nodes; i++) {
            waiting.add(new ArrayList<>());
        }
    }

    /** Node {@code node}'s service ran a batch tentatively. */
    void executedTentatively(int node) {
        open[node] = true;
    }

    /** Node {@code node} settled its tentative run: kept, its state is committed; undone, an installation follows. */
    void settled(int node, boolean kept) {
        if (kept) {
            close(node);
        }
    }

    /** Node {@code node}'s service installed a checkpointed state. */
    void installed(int node) {
        close(node);
    }

    /** Node {@code node}'s process was replaced (a restart from disk or empty): reads waiting there are lost with it. */
    void crashed(int node) {
        open[node] = false;
        waiting.get(node).clear();
    }

    /** Runs {@code answer} now, or once node {@code node}'s state is committed again. */
    void answer(int node, Runnable answer) {
        if (open[node]) {
            waiting.get(node).add(answer);
        } else {
            answer.run();
        }
    }

    private void close(int node) {
        open[node] = false;
        List<Runnable> due = new ArrayList<>(waiting.get(node));
        waiting.get(node).clear();
        due.forEach(Runnable::run);
    }
}
