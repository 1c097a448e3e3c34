package org.bftws.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * View changes of one replica: suspecting the primary, collecting view-changes, joining f+1 others that moved on,
 * building the new-view as the next primary, and checking a new-view as a backup. The timeout doubles with every
 * consecutive view change that brings no progress.
 */
final class ViewChangeProtocol {

    private final Replica replica;
    private final Membership membership;
    private final ReplicaOptions options;
    private final ViewChangeValidator validator;
    /** Each node's valid view-change for the highest view it announced. */
    private final TreeMap<Integer, ViewChange> latest = new TreeMap<>();
    private ViewChange mine;
    private NewView lastNewView;
    private int targetView;
    /** When 2f+1 view-changes for the target view were in (the new-view timer runs from then), or -1. */
    private long quorumSince = -1;
    private int attempts;
    private int newViewSentFor = -1;
    /** When this node last entered a view (tick). */
    private long installedAt;

    ViewChangeProtocol(Replica replica, Membership membership, ReplicaOptions options, Checkpoints checkpoints) {
        this.replica = replica;
        this.membership = membership;
        this.options = options;
        this.validator = new ViewChangeValidator(membership, options, checkpoints);
    }

    int targetView() {
        return targetView;
    }

    /** The nodes whose view-change for the target view (or a later one) this node holds. */
    Set<Integer> holders() {
        Set<Integer> nodes = new TreeSet<>();
        latest.values().stream().filter(vc -> vc.newView() >= targetView).forEach(vc -> nodes.add(vc.sender()));
        return nodes;
    }

    ViewChange mine() {
        return mine;
    }

    NewView lastNewView() {
        return lastNewView;
    }

    /** The tick at which this node entered its current view. */
    long installedAt() {
        return installedAt;
    }

    /**
     * The current timeout: the configured one, doubled for every view change started since the last progress. It
     * times both the wait for a new-view and, in a view reached that way, the wait for a request to execute.
     */
    long timeout() {
        return (long) options.viewChangeTimeout() << Math.min(attempts, 16);
    }

    /** Progress in the current view (a request committed): the timeout falls back to the configured one. */
    void progress() {
        attempts = 0;
    }

    /** Suspects the primary: moves towards {@code newView} and announces it. */
    void start(int newView, String reason) {
        if (newView <= replica.view() || (replica.viewChanging && newView <= targetView)) {
            return;
        }
        replica.out.add(new Output.ViewChangeStarted(newView, reason));
        replica.out.add(new Output.Persist(new DurableRecord.ViewRecord(newView)));
        attempts++;
        targetView = newView;
        replica.viewChanging = true;
        quorumSince = -1;
        Checkpoints cp = replica.checkpoints;
        mine = new ViewChange(newView, cp.stableSeq(), cp.stableDigest(), cp.stableProof(),
                replica.log.certificatesAbove(cp.stableSeq()), replica.id());
        latest.put(replica.id(), mine);
        replica.out.toAgreementNodes(mine);
        noteQuorum();
        maybeSendNewView(newView);
    }

    /**
     * PBFT's rule: the wait for the new-view starts only once 2f+1 nodes left the current view (announced the target
     * view or a later one). A node that is alone in suspecting the primary then never runs ahead into ever higher
     * views where the others could not follow it; it waits until others join, or it learns what they commit.
     */
    private void noteQuorum() {
        if (quorumSince < 0 && replica.viewChanging
                && latest.values().stream().filter(vc -> vc.newView() >= targetView).count() >= membership.quorum()) {
            quorumSince = replica.now;
        }
    }

    void onTick() {
        if (replica.viewChanging && quorumSince >= 0 && replica.now - quorumSince >= timeout()) {
            start(targetView + 1, "no new-view for view " + targetView + " within " + timeout() + " ticks");
        }
    }

    void onViewChange(ViewChange vc) {
        if (vc.newView() <= replica.view()) {
            if (!replica.viewChanging && lastNewView != null) {
                replica.out.toNode(vc.sender(), lastNewView);
            }
            return;
        }
        String problem = validator.problem(vc);
        if (problem != null) {
            replica.out.drop(vc, problem);
            return;
        }
        ViewChange previous = latest.get(vc.sender());
        if (previous != null && previous.newView() >= vc.newView()) {
            return;
        }
        latest.put(vc.sender(), vc);
        joinIfOthersMovedOn();
        noteQuorum();
        maybeSendNewView(vc.newView());
    }

    /** f+1 other nodes announced views beyond ours: at least one correct node suspects too, so follow them. */
    private void joinIfOthersMovedOn() {
        int current = replica.viewChanging ? targetView : replica.view();
        List<Integer> higher = new ArrayList<>();
        for (ViewChange vc : latest.values()) {
            if (vc.sender() != replica.id() && vc.newView() > current) {
                higher.add(vc.newView());
            }
        }
        if (higher.size() >= membership.weakQuorum()) {
            higher.sort(Comparator.reverseOrder());
            start(higher.get(membership.weakQuorum() - 1), membership.weakQuorum() + " nodes moved beyond view " + current);
        }
    }

    private void maybeSendNewView(int view) {
        if (membership.primary(view) != replica.id() || newViewSentFor >= view || !replica.viewChanging
                || targetView != view) {
            return;
        }
        List<ViewChange> forView = new ArrayList<>();
        for (ViewChange vc : latest.values()) {
            if (vc.newView() == view) {
                forView.add(vc);
            }
        }
        if (forView.size() < membership.quorum()) {
            return;
        }
        List<ViewChange> chosen = forView.subList(0, membership.quorum());
        NewViewPlan plan = NewViewPlan.compute(membership, view, chosen);
        NewView nv = new NewView(view, chosen, plan.prePrepares(), replica.id());
        newViewSentFor = view;
        replica.out.toAgreementNodes(nv);
        install(nv, plan);
    }

    void onNewView(NewView nv) {
        // A node that announced view w promised to take no part in lower views: its view-change for w may be in
        // a new-view already, without what it would prepare there. So only views from its target on count.
        int lowest = replica.viewChanging ? targetView : replica.view() + 1;
        if (nv.view() < lowest) {
            return;
        }
        if (nv.sender() != membership.primary(nv.view())) {
            replica.out.drop(nv, "new-view not from the primary of view " + nv.view());
            return;
        }
        Set<Integer> senders = new TreeSet<>();
        for (ViewChange vc : nv.viewChanges()) {
            if (vc.newView() != nv.view()) {
                replica.out.drop(nv, "carries a view-change for view " + vc.newView());
                return;
            }
            String problem = validator.problem(vc);
            if (problem != null) {
                replica.out.drop(nv, "carries an invalid view-change: " + problem);
                return;
            }
            senders.add(vc.sender());
        }
        if (senders.size() < membership.quorum() || senders.size() != nv.viewChanges().size()) {
            replica.out.drop(nv, "needs " + membership.quorum() + " view-changes from distinct nodes");
            return;
        }
        NewViewPlan plan = NewViewPlan.compute(membership, nv.view(), nv.viewChanges());
        if (!plan.prePrepares().equals(nv.prePrepares())) {
            replica.out.drop(nv, "its pre-prepares do not follow from its view-changes");
            return;
        }
        install(nv, plan);
    }

    private void install(NewView nv, NewViewPlan plan) {
        lastNewView = nv;
        installedAt = replica.now;
        targetView = nv.view();
        latest.values().removeIf(vc -> vc.newView() <= nv.view());
        replica.enterView(nv.view(), plan);
    }
}
