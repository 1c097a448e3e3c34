package org.bftws.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Claim;
import org.bftws.core.Commit;
import org.bftws.core.CommittedBatch;
import org.bftws.core.Digest;
import org.bftws.core.FetchCommitted;
import org.bftws.core.FetchRequests;
import org.bftws.core.FetchState;
import org.bftws.core.ForwardedRequests;
import org.bftws.core.Message;
import org.bftws.core.NewView;
import org.bftws.core.PrePrepare;
import org.bftws.core.Prepare;
import org.bftws.core.PreparedCertificate;
import org.bftws.core.Reply;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.bftws.core.StateSnapshot;
import org.bftws.core.SignedClaim;
import org.bftws.core.Status;
import org.bftws.core.ViewChange;

/**
 * Realistic core messages of a four-node group (f=1): the primary of view v is node v mod 4. Built the way the core
 * builds them, so that a new-view carries view-changes with prepared certificates and stable-checkpoint proofs.
 */
final class SampleMessages {
    static final Digest STATE_128 = Digest.of("state at 128".getBytes(StandardCharsets.UTF_8));

    private SampleMessages() {
    }

    static Request request(int client, long number, int bytes) {
        byte[] payload = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            payload[i] = (byte) ('a' + (i + client + number) % 26);
        }
        return new Request(new RequestId("urn:uuid:4c1e8b0e-client-" + client, number), payload);
    }

    static List<Request> requests(int count, int bytes) {
        List<Request> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(request(i % 8, 1 + i / 8, bytes));
        }
        return out;
    }

    /** A batch with a time (the primary's clock reading), so the round trips show that both codecs carry it. */
    static Batch batch(List<Request> requests) {
        return new Batch(requests.stream().map(Request::ref).toList(), requests.isEmpty() ? 0 : 1_764_000_000_000L + requests.size());
    }

    static PrePrepare prePrepare(int view, long seq, int requests) {
        return new PrePrepare(view, seq, batch(requests(requests, 100)), Math.floorMod(view, 4));
    }

    /** A pre-prepare of the primary of {@code view} and the prepares of the two backups after it. */
    static PreparedCertificate certificate(int view, long seq, int requests) {
        PrePrepare pp = prePrepare(view, seq, requests);
        int primary = pp.sender();
        List<Prepare> prepares = List.of(new Prepare(view, seq, pp.digest(), (primary + 1) % 4),
                new Prepare(view, seq, pp.digest(), (primary + 2) % 4));
        return new PreparedCertificate(pp, prepares);
    }

    static List<Checkpoint> stableProof(long seq, Digest state) {
        return List.of(new Checkpoint(seq, state, 0), new Checkpoint(seq, state, 1), new Checkpoint(seq, state, 2));
    }

    /** Node {@code sender}'s view-change to {@code newView} with the stable checkpoint 128 and {@code certs} slots. */
    static ViewChange viewChange(int newView, int sender, int certs) {
        List<PreparedCertificate> prepared = new ArrayList<>();
        for (int i = 0; i < certs; i++) {
            prepared.add(certificate(newView - 1, 129 + i, 3));
        }
        return new ViewChange(newView, 128, STATE_128, stableProof(128, STATE_128), prepared, sender);
    }

    /** The 2f+1 view-changes {@link #newView()} names, two of them carrying certificates. */
    static List<ViewChange> newViewChanges() {
        return List.of(viewChange(2, 0, 2), viewChange(2, 1, 2), viewChange(2, 2, 0));
    }

    /** The new-view of view 2 (primary 2) built on {@link #newViewChanges()}. */
    static NewView newView() {
        List<ViewChange> vcs = newViewChanges();
        List<PrePrepare> reproposed = List.of(
                new PrePrepare(2, 129, vcs.get(0).prepared().get(0).prePrepare().batch(), 2),
                new PrePrepare(2, 130, vcs.get(0).prepared().get(1).prePrepare().batch(), 2),
                new PrePrepare(2, 131, Batch.NULL, 2));
        return new NewView(2, vcs.stream().map(org.bftws.core.ViewChangeRef::of).toList(), reproposed, 2);
    }

    /** One message of every core type. */
    static List<Message> everyType() {
        List<Request> reqs = requests(3, 300);
        byte[] state = "application state with replies".repeat(20).getBytes(StandardCharsets.UTF_8);
        return List.of(
                prePrepare(0, 7, 5),
                new PrePrepare(1, 8, Batch.NULL, 1),
                new Prepare(0, 7, prePrepare(0, 7, 5).digest(), 2),
                new Commit(0, 7, prePrepare(0, 7, 5).digest(), 3),
                new Checkpoint(128, STATE_128, 1),
                viewChange(1, 3, 3),
                newView(),
                new FetchRequests(reqs.stream().map(Request::digest).toList(), 2),
                new ForwardedRequests(reqs, 0),
                new FetchState(256, 3),
                new StateSnapshot(128, state, stableProof(128, STATE_128), 0),
                new Status(1, true, 128, 140, 2, 3, java.util.Set.of(0, 2)),
                new Status(4, 128, 140, 1),
                new Reply(new RequestId("urn:uuid:4c1e8b0e-client-1", 9), 1, "<r>ok</r>".getBytes(StandardCharsets.UTF_8), 1),
                new CommittedBatch(0, 7, batch(reqs), reqs, 0),
                new FetchCommitted(99, 3),
                new Claim(batch(reqs).requests(), 2),
                new SignedClaim(batch(reqs).requests(), 3));
    }
}
