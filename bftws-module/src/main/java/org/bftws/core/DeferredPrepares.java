package org.bftws.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A backup's prepares for the re-proposals of a new view that it had committed already in an earlier view. The
 * view's progress (the request a client waits for, above the re-proposals) depends on the slots it has not committed
 * only; signing a prepare for every slot above the stable checkpoint first (up to a checkpoint interval of them)
 * delayed the prepare that matters, and the peers verified them all first. So these wait until this node executed
 * beyond the re-proposals (the new view works, the waiting client has its reply) or a status period after it entered
 * the view, whichever comes first: the timer keeps the view live when no request follows the view change. They are
 * still sent, for any node that did not commit those slots.
 */
final class DeferredPrepares {

    private final Replica replica;
    private final NormalCase normal;
    private final List<Slot> slots = new ArrayList<>();
    /** The highest re-proposed sequence number of the installed view, and when this node entered it. */
    private long reproposedUpTo;
    private long viewEnteredTick;

    DeferredPrepares(Replica replica, NormalCase normal) {
        this.replica = replica;
        this.normal = normal;
    }

    /** A view was entered at {@code now} whose re-proposals reach {@code reproposedUpTo}: nothing deferred yet. */
    void viewEntered(long reproposedUpTo, long now) {
        slots.clear();
        this.reproposedUpTo = reproposedUpTo;
        this.viewEnteredTick = now;
    }

    /** Holds back the prepare of {@code s}, a re-proposal this backup committed before. */
    void defer(Slot s) {
        slots.add(s);
    }

    /** Sends the held-back prepares once they are due (see the class comment); on every tick. */
    void sendIfDue() {
        if (slots.isEmpty() || replica.viewChanging || (replica.lastExecuted() <= reproposedUpTo
                && replica.now - viewEnteredTick < replica.options.statusPeriod())) {
            return;
        }
        List<Slot> due = new ArrayList<>(slots);
        slots.clear();
        for (Slot s : due) {
            if (s.view == replica.view() && s.prePrepare != null && replica.log.get(s.seq) == s) {
                normal.sendPrepareIfReady(s);
                normal.checkPrepared(s);
            }
        }
    }
}
