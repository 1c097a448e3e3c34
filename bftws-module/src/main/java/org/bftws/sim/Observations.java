package org.bftws.sim;

import org.bftws.core.Destination;
import org.bftws.core.Output;
import org.bftws.core.Reply;

/**
 * What the simulator notes about a node's outputs besides carrying them out: the oracle's events, counters and
 * trace lines. A faulty node's outputs are counted and traced but never taken as evidence of what correct nodes did.
 */
final class Observations {

    private final Simulation sim;
    private final Scenario scenario;
    private final Oracle oracle;
    private final TentativeWindows tentativeWindows;

    Observations(Simulation sim, Scenario scenario, Oracle oracle, TentativeWindows tentativeWindows) {
        this.sim = sim;
        this.scenario = scenario;
        this.oracle = oracle;
        this.tentativeWindows = tentativeWindows;
    }

    /**
     * Node {@code i} sends {@code s}; it stands after execution {@code lastExecuted}. A correct executor's refusal is
     * what a client may accept instead of a reply; a tentative one counts once the node keeps its tentative run (of
     * the next sequence number: a node runs one batch tentatively at a time, right after its last execution).
     */
    void sent(int i, Output.Send s, long lastExecuted) {
        if (!scenario.faulty(i) && s.to() instanceof Destination.Client && s.message() instanceof Reply r
                && Reply.endedReason(r.result()).isPresent()) {
            if (r.tentative()) {
                oracle.provisionally(i, lastExecuted + 1, () -> oracle.refused(i, r.request(), r.result()));
            } else {
                oracle.refused(i, r.request(), r.result());
            }
        }
    }

    /** What correct node {@code i}'s execution {@code e} did, for the oracle: now, or once it keeps a tentative run. */
    void executed(int i, Output.Execute e, Runnable what) {
        if (e.tentative()) {
            oracle.provisionally(i, e.seq(), what);
        } else {
            what.run();
        }
    }

    /** Any other output of node {@code i} than a message, service work or a durable record. */
    void noted(int i, Output o) {
        boolean correct = !scenario.faulty(i);
        if (o instanceof Output.TentativeSettled t) {
            sim.count(t.kept() ? "tentative executions kept" : "tentative executions undone");
            if (correct) {
                oracle.settled(i, t.seq(), t.kept());
            }
            tentativeWindows.settled(i, t.kept());
            sim.trace(() -> "node " + i + (t.kept() ? " keeps" : " undoes") + " its tentative execution of " + t.seq());
        } else if (o instanceof Output.SequencesExpired x) {
            sim.count("sequences expired");
            if (correct) {
                oracle.expired(i, x.seq(), x.clients());
            }
            sim.trace(() -> "node " + i + " expires " + x.clients() + " at " + x.seq());
        } else if (o instanceof Output.Committed c) {
            if (correct) {
                oracle.committed(i, c.seq(), c.batch());
            }
        } else if (o instanceof Output.ViewChangeStarted v) {
            sim.count("view changes started");
            if (scenario.onlyTheClientMisbehaves()) {
                oracle.clientForcedViewChange(i, v.view(), v.reason());
            }
            sim.trace(() -> "node " + i + " starts a view change to " + v.view() + ": " + v.reason());
        } else if (o instanceof Output.ViewInstalled v) {
            sim.count("views installed");
            sim.trace(() -> "node " + i + " enters view " + v.view());
        } else if (o instanceof Output.Dropped d) {
            sim.count("drops");
            if (d.reason().contains("beyond the bound")) {
                sim.count("pre-prepares not prepared: time beyond the clock bound");
            }
            sim.trace(() -> "node " + i + " drops " + d.what() + ": " + d.reason());
        }
    }
}
