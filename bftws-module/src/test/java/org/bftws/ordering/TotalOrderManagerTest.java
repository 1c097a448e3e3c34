package org.bftws.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Digest;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.Node;
import org.bftws.core.Reply;
import org.bftws.core.ReplicaOptions;
import org.bftws.core.ViewChange;
import org.bftws.state.Journal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one concurrency wrapper around the core, on a real core and journal, with the channel recording what it sends. */
class TotalOrderManagerTest {

    @TempDir
    Path dir;

    private final List<Message> sent = new ArrayList<>();

    /**
     * A replica stopping: its channels' receivers may still hand it messages after the manager stopped and closed the
     * journal. What the core answers then is neither written (the journal is closed) nor sent (nothing may leave that
     * the journal does not hold), and the receiver is not failed.
     */
    @Test
    void messagesArrivingAfterTheStopAreNeitherJournaledNorAnswered() {
        TotalOrderManager manager = started();
        manager.stop();
        // two others moved to view 1: the core joins them (a view-change to send, its view to persist)
        manager.onMessages(List.of(viewChange(2, Digest.of(new byte[0])), viewChange(3, Digest.of(new byte[0]))));
        assertEquals(List.of(), sent);
    }

    /** A view-change the core refuses is counted apart from other dropped inputs (and logged at INFO, rate-limited). */
    @Test
    void aRefusedViewChangeIsCountedWhereOperatorsLook() {
        TotalOrderManager manager = started();
        try {
            manager.onMessages(List.of(viewChange(2, Digest.of(new byte[] {1}))));
            assertEquals(1L, manager.counters().get("view-changes and new-views dropped"), manager.counters().toString());
        } finally {
            manager.stop();
        }
    }

    private TotalOrderManager started() {
        ReplicaChannel channel = new ReplicaChannel() {
            @Override
            public void start() {
            }

            @Override
            public void stop() {
            }

            @Override
            public void send(Destination to, Message m) {
                sent.add(m);
            }

            @Override
            public void stableCheckpointIs(long seq) {
            }

            @Override
            public Map<String, Long> counters() {
                return Map.of();
            }
        };
        ClientReplies replies = new ClientReplies() {
            @Override
            public void reply(Reply reply) {
            }

            @Override
            public void expired(List<String> sequences) {
            }
        };
        Node core = Node.create(1, Membership.configurationI(1), new ReplicaOptions(4, 8, 3, 0, 2, 50, 10, 10, 8));
        TotalOrderManager manager = new TotalOrderManager(core, "replica1", channel, new ExecutionQueue(), replies,
                () -> { }, Journal.open(dir.resolve("replica1")), OrderingHooks.none());
        manager.recover();
        manager.start();
        return manager;
    }

    /** {@code sender}'s view-change to view 1 from the initial state, whose digest is {@code stable}. */
    private static ViewChange viewChange(int sender, Digest stable) {
        return new ViewChange(1, 0, stable, List.of(), List.of(), sender);
    }
}
