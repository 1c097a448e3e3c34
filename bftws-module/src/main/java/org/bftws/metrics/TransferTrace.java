package org.bftws.metrics;

import java.util.List;
import java.util.function.LongSupplier;

import org.bftws.core.FetchState;
import org.bftws.core.Message;
import org.bftws.core.Output;
import org.bftws.core.StateSnapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One INFO line per step of a state transfer, on both ends, in milliseconds since this replica's first FetchState
 * (requester) or since the FetchState arrived (executor), so that one transfer can be read step by step from the two
 * logs (docs/recovery.md, "One 10 MB transfer step by step"): FetchState sent; at the executor FetchState handed
 * to the core and the snapshot queued for the channel; at the requester the snapshot decoded and handed to the core,
 * the proof and digest checked (InstallState), set_state delivered, StateTransferred. Refused snapshots are logged
 * with the core's reason. A few lines per transfer: cheap enough to leave on.
 */
public final class TransferTrace {
    private static final Logger LOG = LoggerFactory.getLogger(TransferTrace.class);

    private final String name;
    private final int self;
    private final LongSupplier nanos;
    /** When this replica's first FetchState of the running transfer left; -1 when none runs. */
    private long fetchStarted = -1;

    public TransferTrace(String name, int self, LongSupplier nanos) {
        this.name = name;
        this.self = self;
        this.nanos = nanos;
    }

    /** Messages of one peer bundle, just decoded, before the core takes them. */
    public synchronized void received(List<Message> messages) {
        for (Message m : messages) {
            if (m instanceof FetchState f) {
                LOG.info("{}: transfer: FetchState(n{}) from node {} reached the core", name, f.seq(), f.sender());
            } else if (m instanceof StateSnapshot s) {
                LOG.info("{}: transfer {}: {} decoded, handed to the core", name, since(), s);
            }
        }
    }

    /** Outputs the manager routes. */
    public synchronized void observe(List<Output> outputs) {
        for (Output o : outputs) {
            if (o instanceof Output.Send s && s.message() instanceof FetchState f && f.sender() == self) {
                if (fetchStarted < 0) {
                    fetchStarted = nanos.getAsLong();
                }
                LOG.info("{}: transfer {}: FetchState(n{}) sent to {}", name, since(), f.seq(), s.to());
            } else if (o instanceof Output.Send s && s.message() instanceof StateSnapshot snap) {
                LOG.info("{}: transfer: {} queued for {} ({} proof checkpoints)", name, snap, s.to(),
                        snap.proof().size());
            } else if (o instanceof Output.InstallState i) {
                LOG.info("{}: transfer {}: proof and digest checked, set_state of checkpoint {} ({} bytes) queued",
                        name, since(), i.seq(), i.applicationState().length);
            } else if (o instanceof Output.StateTransferred t) {
                LOG.info("{}: transfer {}: state at {} installed", name, since(), t.seq());
                fetchStarted = -1;
            } else if (o instanceof Output.Dropped d && d.what().startsWith("StateSnapshot")) {
                LOG.info("{}: transfer {}: refused {}: {}", name, since(), d.what(), d.reason());
            }
        }
    }

    /** The invoker delivered set_state, which took {@code tookNanos}. */
    public synchronized void stateSet(long seq, long tookNanos) {
        LOG.info("{}: transfer {}: set_state of checkpoint {} delivered in {} ms", name, since(), seq,
                tookNanos / 1_000_000);
    }

    private String since() {
        return fetchStarted < 0 ? "(no fetch)" : "+" + (nanos.getAsLong() - fetchStarted) / 1_000_000 + " ms";
    }
}
