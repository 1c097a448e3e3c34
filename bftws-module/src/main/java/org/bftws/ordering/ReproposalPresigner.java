package org.bftws.ordering;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.bftws.core.Membership;
import org.bftws.core.PrePrepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.ViewChange;
import org.bftws.wire.MessageSigner;
import org.bftws.wire.SignatureCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs ahead the re-proposals this node will most likely put in its new-view, while it waits for the others'
 * view-changes: when it announces a view it is the primary of, one pre-prepare of that view per certificate of its
 * own view-change (the same batch at the same sequence number: what the new-view re-proposes whenever the others
 * prepared nothing newer, the usual case). Each takes a signature: ~0.8 ms idle with the RSA keys of earlier
 * versions, when a checkpoint interval of them (up to 49 at K = 50), made as the new-view left, delayed it on every
 * peer's channel; about 0.02 ms with Ed25519 proof keys (docs/wire.md), so it matters far less now, but still
 * takes the signing off the new-view's path under load.
 * A guess that turns out wrong costs only the signature: the sender threads sign whatever is still missing
 * ({@link MessageSigner#signOwnParts}, which also keeps them from signing a part this thread is signing), and the
 * signature of a message value is the same whoever makes it (Ed25519 is deterministic).
 */
public final class ReproposalPresigner {
    private static final Logger LOG = LoggerFactory.getLogger(ReproposalPresigner.class);

    private final MessageSigner signer;
    private final SignatureCache cache;
    private final Membership membership;
    /** The last view whose re-proposals were handed to the worker (the view-change goes out once per peer). */
    private int presignedFor = -1;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "bftws-presign");
        t.setDaemon(true);
        return t;
    });

    public ReproposalPresigner(MessageSigner signer, SignatureCache cache, Membership membership) {
        this.signer = signer;
        this.cache = cache;
        this.membership = membership;
    }

    /** This node sent {@code vc} (called by the manager, under its lock): if it will be the primary of that view, sign its likely re-proposals now. */
    public void ownViewChangeSent(ViewChange vc) {
        int view = vc.newView();
        if (vc.sender() != signer.self() || membership.primary(view) != signer.self() || vc.prepared().isEmpty()
                || view == presignedFor) {
            return;
        }
        presignedFor = view;
        List<PrePrepare> likely = vc.prepared().stream().map(PreparedCertificate::prePrepare)
                .map(pp -> new PrePrepare(view, pp.seq(), pp.batch(), signer.self())).toList();
        try {
            worker.execute(() -> {
                try {
                    likely.forEach(pp -> signer.signOwnParts(pp, cache));
                } catch (RuntimeException e) {
                    LOG.warn("could not sign the likely re-proposals of view {} ahead: {}", view, e.toString());
                }
            });
        } catch (RejectedExecutionException stopped) {
            // shutting down
        }
    }

    public void stop() {
        worker.shutdownNow();
    }
}
