package org.bftws.tier;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.bftws.rm.OutboundSequence;

/**
 * How far a caller replica has numbered its group's virtual sequences (paper 3.4): for each sequence identifier, the
 * last message number handed out. Nested call k of the group carries number k on every caller replica, so the
 * numbering is part of the group's replicated state: it goes into every checkpoint ({@code ExecutionState}) and a
 * replica that installs a checkpoint (after a restart, a state transfer or a divergence) continues from the
 * group's count instead of 1, which the callee would refuse. A sequence not yet created here when a checkpoint is
 * installed starts from the installed count once it is created.
 *
 * <p>Read and changed by the invoker thread only (nested calls are made inside executions, checkpoints and state
 * installation happen between them); synchronized so that a reader elsewhere sees a consistent map.
 */
public final class NestedNumbering {

    /** Virtual sequences created on this replica, by identifier. */
    private final Map<String, OutboundSequence> live = new HashMap<>();
    /** Installed counts of sequences not created here yet. */
    private final Map<String, Long> pending = new HashMap<>();

    /** A virtual sequence was created: it continues from an installed count, if there is one. */
    public synchronized void created(OutboundSequence sequence) {
        live.put(sequence.id(), sequence);
        Long last = pending.remove(sequence.id());
        if (last != null) {
            sequence.resumeAfter(last);
        }
    }

    /** Each virtual sequence with at least one number handed out, and its last number, in identifier order. */
    public synchronized SortedMap<String, Long> numbers() {
        SortedMap<String, Long> out = new TreeMap<>(pending);
        for (OutboundSequence s : live.values()) {
            if (s.lastMessageNumber() > 0) {
                out.put(s.id(), s.lastMessageNumber());
            }
        }
        return out;
    }

    /** The group's numbering as an installed checkpoint has it: replaces this replica's own. */
    public synchronized void resume(Map<String, Long> installed) {
        pending.clear();
        for (Map.Entry<String, Long> e : installed.entrySet()) {
            OutboundSequence s = live.get(e.getKey());
            if (s != null) {
                s.resumeAfter(e.getValue());
            } else {
                pending.put(e.getKey(), e.getValue());
            }
        }
        for (OutboundSequence s : live.values()) {
            if (!installed.containsKey(s.id())) {
                s.resumeAfter(0); // the group had made no call on it as of the installed checkpoint
            }
        }
    }
}
