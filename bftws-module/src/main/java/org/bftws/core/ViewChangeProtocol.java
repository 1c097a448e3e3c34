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
 *
 * <p>A node restarted without its data directory has forgotten the view-changes it sent before: it may announce a
 * view lower than one it announced earlier, or the same view with other content. So each node's view-changes are
 * kept per view it announced (the {@value #VIEWS_KEPT} highest; a newer one for the same view replaces the older),
 * and the primary of a view counts whatever each node announced for that very view; and a node that lacks its own
 * earlier view-change named by a new-view takes it back from a peer (see {@link #onOwnViewChange}). Without both, the
 * others kept its forgotten view-change for a higher view, ignored its new ones, and built new-views it could not
 * check: a restarted replica and a cut-off primary stopped the group for two view changes.
 */
final class ViewChangeProtocol {

    private final Replica replica;
    private final Membership membership;
    private final ReplicaOptions options;
    private final ViewChangeValidator validator;
    /** How many views' view-changes are kept per node: the highest ones it announced. */
    static final int VIEWS_KEPT = 4;

    /** Each node's valid view-changes by the view they announce (its {@value #VIEWS_KEPT} highest views). */
    private final TreeMap<Integer, TreeMap<Integer, ViewChange>> announced = new TreeMap<>();
    private ViewChange mine;
    private NewView lastNewView;
    /** The view-changes {@link #lastNewView} names, in its order: resent with it to a node that lacks them. */
    private List<ViewChange> lastNewViewChanges = List.of();
    /**
     * A new-view from the right primary naming a view-change this node does not hold (lost, or its sender sent
     * others another one): entered once the named one arrives (a peer's status answer resends it). The highest only.
     */
    private NewView pendingNewView;
    /** View-changes received for {@link #pendingNewView} that {@link #announced} does not keep (an older one). */
    private final TreeMap<Integer, ViewChange> forPending = new TreeMap<>();
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
        announced.forEach((sender, views) -> {
            if (views.lastKey() >= targetView) {
                nodes.add(sender);
            }
        });
        return nodes;
    }

    /** The highest view each node announced (the view-change kept for it). */
    private List<ViewChange> highest() {
        List<ViewChange> all = new ArrayList<>();
        announced.values().forEach(views -> all.add(views.lastEntry().getValue()));
        return all;
    }

    /** Keeps {@code vc} as what its sender announced for its view, replacing an older one for that view. */
    private void keep(ViewChange vc) {
        TreeMap<Integer, ViewChange> views = announced.computeIfAbsent(vc.sender(), k -> new TreeMap<>());
        views.put(vc.newView(), vc);
        while (views.size() > VIEWS_KEPT) {
            views.pollFirstEntry();
        }
    }

    /** Forgets every view-change for {@code view} or a lower one (a view entered). */
    private void forgetUpTo(int view) {
        announced.values().forEach(views -> views.headMap(view, true).clear());
        announced.values().removeIf(TreeMap::isEmpty);
    }

    ViewChange mine() {
        return mine;
    }

    NewView lastNewView() {
        return lastNewView;
    }

    /** The view-changes the last new-view names, which a node needs with it to check it. */
    List<ViewChange> lastNewViewChanges() {
        return lastNewViewChanges;
    }

    /**
     * Sends the current view's new-view to {@code node}, and then the view-changes it names (see {@link #onNewView}),
     * its own among them: a node restarted without its data directory no longer holds the one it sent.
     */
    void resendNewView(int node) {
        if (lastNewView == null) {
            return;
        }
        replica.out.toNode(node, lastNewView);
        lastNewViewChanges.forEach(vc -> replica.out.toNode(node, vc));
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
        keep(mine);
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
                && holders().size() >= membership.quorum()) {
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
            // Only the new-view: a view-change may come relayed (a status answer resends those a new-view names), and
            // answering each with view-changes again, to their authors, made the nodes relay them to each other
            // without end. A node that then lacks a named view-change gets it from the status exchange.
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
        if (pendingNewView != null && pendingNewView.viewChanges().stream().anyMatch(r -> r.names(vc))) {
            forPending.put(vc.sender(), vc);
            onNewView(pendingNewView); // installs it if this was the last one missing
            if (replica.view() >= vc.newView()) {
                return;
            }
        }
        TreeMap<Integer, ViewChange> views = announced.get(vc.sender());
        ViewChange previous = views == null ? null : views.get(vc.newView());
        if (previous != null && previous.digest().equals(vc.digest())) {
            return;
        }
        keep(vc);
        // Even with a new-view for this view pending: its primary may be faulty and name a view-change no correct
        // node holds, and then only joining brings the correct nodes to the 2f+1 view-changes that start their
        // new-view timer (a node that holds all it names has installed it above and does not get here).
        joinIfOthersMovedOn();
        noteQuorum();
        maybeSendNewView(vc.newView());
    }

    /**
     * A view-change of this node's own, relayed by a peer (with the new-view naming it): taken when the new-view
     * this node waits for names it, which happens only when this node sent it before it lost its memory (a restart
     * without its data directory); ignored otherwise, as a node holds what it sends.
     */
    void onOwnViewChange(ViewChange vc) {
        if (pendingNewView == null || pendingNewView.viewChanges().stream().noneMatch(r -> r.names(vc))) {
            return;
        }
        String problem = validator.problem(vc);
        if (problem != null) {
            replica.out.drop(vc, problem);
            return;
        }
        forPending.put(vc.sender(), vc);
        onNewView(pendingNewView);
    }

    /** f+1 other nodes announced views beyond ours: at least one correct node suspects too, so follow them. */
    private void joinIfOthersMovedOn() {
        int current = replica.viewChanging ? targetView : replica.view();
        List<Integer> higher = new ArrayList<>();
        for (ViewChange vc : highest()) {
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
        for (TreeMap<Integer, ViewChange> views : announced.values()) {
            ViewChange vc = views.get(view);
            if (vc != null) {
                forView.add(vc);
            }
        }
        if (forView.size() < membership.quorum()) {
            return;
        }
        List<ViewChange> chosen = List.copyOf(forView.subList(0, membership.quorum()));
        NewViewPlan plan = NewViewPlan.compute(membership, view, chosen);
        NewView nv = new NewView(view, chosen.stream().map(ViewChangeRef::of).toList(), plan.prePrepares(),
                replica.id());
        newViewSentFor = view;
        replica.out.toAgreementNodes(nv);
        install(nv, chosen, plan);
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
        nv.viewChanges().forEach(r -> senders.add(r.sender()));
        if (senders.size() < membership.quorum() || senders.size() != nv.viewChanges().size()) {
            replica.out.drop(nv, "needs " + membership.quorum() + " view-changes from distinct nodes");
            return;
        }
        List<ViewChange> named = new ArrayList<>();
        for (ViewChangeRef ref : nv.viewChanges()) {
            ViewChange vc = held(ref, nv.view());
            if (vc == null) {
                // Not here (yet): wait for it rather than refuse; a stuck status brings it (StatusResponder).
                if (pendingNewView == null || pendingNewView.view() < nv.view()) {
                    forPending.clear();
                    pendingNewView = nv;
                } else if (pendingNewView.view() == nv.view()) {
                    pendingNewView = nv;
                }
                return;
            }
            named.add(vc);
        }
        NewViewPlan plan = NewViewPlan.compute(membership, nv.view(), named);
        if (!plan.prePrepares().equals(nv.prePrepares())) {
            replica.out.drop(nv, "its pre-prepares do not follow from its view-changes");
            return;
        }
        install(nv, named, plan);
    }

    /**
     * The valid view-change for {@code view} that {@code ref} names, if this node holds it. Every one held passed
     * the {@link ViewChangeValidator} on arrival (and its signatures the adapter's check), as the embedded ones did.
     */
    private ViewChange held(ViewChangeRef ref, int view) {
        TreeMap<Integer, ViewChange> views = announced.get(ref.sender());
        for (ViewChange vc : new ViewChange[] {views == null ? null : views.get(view), forPending.get(ref.sender())}) {
            if (vc != null && vc.newView() == view && ref.names(vc)) {
                return vc;
            }
        }
        return null;
    }

    private void install(NewView nv, List<ViewChange> named, NewViewPlan plan) {
        lastNewView = nv;
        lastNewViewChanges = List.copyOf(named);
        if (pendingNewView != null && pendingNewView.view() <= nv.view()) {
            pendingNewView = null;
        }
        forPending.values().removeIf(vc -> vc.newView() <= nv.view());
        installedAt = replica.now;
        targetView = nv.view();
        forgetUpTo(nv.view());
        replica.enterView(nv.view(), plan);
    }
}
