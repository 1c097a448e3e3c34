package org.bftws.metrics;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

import org.bftws.core.Commit;
import org.bftws.core.NewView;
import org.bftws.core.Output;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.Reply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a failover's time goes at one replica: from its suspicion of the primary (the core's ViewChangeStarted)
 * to the first reply it releases to a client in the view it reaches, each step logged once, at INFO, with the
 * milliseconds since the suspicion. A replica's log then reads, e.g., "view 2: new-view sent +110.4 ms, view entered
 * +110.9 ms, first pre-prepare +111.2 ms, ... first reply to a client +161.0 ms" (docs/recovery.md reads the kills
 * this way). Only outputs of the view being reached count: messages and executions of the old view that arrive
 * during the view change are not progress in the new one. Called under the manager's lock; not thread-safe.
 */
public final class ViewChangeTrace {
    private static final Logger LOG = LoggerFactory.getLogger(ViewChangeTrace.class);

    /** The steps of one failover at one replica, in the order they usually happen. */
    enum Step {
        NEW_VIEW_SENT("new-view sent"), VIEW_ENTERED("view entered"), PRE_PREPARE_SENT("first pre-prepare sent"),
        PREPARE_SENT("first prepare sent"), COMMIT_SENT("first commit sent"), COMMITTED("first batch committed"),
        EXECUTE("first batch to execute"), REPLY("first reply to a client");

        private final String label;

        Step(String label) {
            this.label = label;
        }
    }

    private final String name;
    private final int self;
    private final LongSupplier clock;
    private final Map<Step, Long> seen = new EnumMap<>(Step.class);
    /** When this replica last started suspecting the primary (nanos). */
    private long suspectedAt;
    /** Whether a view change is being traced: from a suspicion until the first reply in the view reached. */
    private boolean tracing;
    /** The view the replica moves to; steps count only in it (or, for the view entered, a later one). */
    private int target = -1;

    public ViewChangeTrace(String name, int self, LongSupplier clock) {
        this.name = name;
        this.self = self;
        this.clock = clock;
    }

    /** The manager routed {@code outputs}. */
    public void observe(List<Output> outputs) {
        long now = clock.getAsLong();
        for (Output o : outputs) {
            if (o instanceof Output.ViewChangeStarted v) {
                // A new suspicion from an installed view starts a new trace; a later target while still changing
                // views (no new-view in time) keeps the first suspicion's clock.
                if (!tracing || seen.containsKey(Step.VIEW_ENTERED)) {
                    tracing = true;
                    suspectedAt = now;
                    seen.clear();
                }
                target = v.view();
            } else if (tracing) {
                step(o, now);
            }
        }
    }

    /** The steps seen since the last suspicion, in milliseconds after it (for tests and the measurements line). */
    Map<Step, Double> steps() {
        Map<Step, Double> m = new EnumMap<>(Step.class);
        seen.forEach((s, at) -> m.put(s, (at - suspectedAt) / 1e6));
        return m;
    }

    private void step(Output o, long now) {
        if (o instanceof Output.ViewInstalled v && v.view() >= target) {
            target = v.view();
            note(Step.VIEW_ENTERED, now);
        } else if (o instanceof Output.Send s) {
            Object m = s.message();
            if (m instanceof NewView nv && nv.sender() == self && nv.view() == target) {
                note(Step.NEW_VIEW_SENT, now);
            } else if (m instanceof PrePrepare pp && pp.sender() == self && pp.view() == target) {
                note(Step.PRE_PREPARE_SENT, now);
            } else if (m instanceof Prepare p && p.sender() == self && p.view() == target) {
                note(Step.PREPARE_SENT, now);
            } else if (m instanceof Commit c && c.sender() == self && c.view() == target) {
                note(Step.COMMIT_SENT, now);
            } else if (m instanceof Reply r && r.view() == target) {
                note(Step.REPLY, now);
                tracing = false; // the failover is over at this replica
            }
        } else if (o instanceof Output.Committed c && c.view() == target) {
            note(Step.COMMITTED, now);
        } else if (o instanceof Output.Execute e && e.view() == target && !e.requests().isEmpty()) {
            note(Step.EXECUTE, now);
        }
    }

    private void note(Step step, long now) {
        if (seen.putIfAbsent(step, now) == null) {
            LOG.info(String.format(Locale.ROOT, "%s: view %d: %s +%.1f ms after suspecting the primary", name, target,
                    step.label, (now - suspectedAt) / 1e6));
        }
    }
}
