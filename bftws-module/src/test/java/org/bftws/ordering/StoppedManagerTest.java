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

/**
 * A replica stopping: its channels' receivers may still hand it messages after the manager stopped and closed the
 * journal. What the core answers then is neither written (the journal is closed) nor sent (nothing may leave that
 * the journal does not hold), and the receiver is not failed.
 */
class StoppedManagerTest {

    @TempDir
    Path dir;

    @Test
    void messagesArrivingAfterTheStopAreNeitherJournaledNorAnswered() {
        List<Message> sent = new ArrayList<>();
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
        manager.stop();
        // two others moved to view 1: the core joins them (a view-change to send, its view to persist)
        manager.onMessages(List.of(viewChange(2), viewChange(3)));
        assertEquals(List.of(), sent);
    }

    private static ViewChange viewChange(int sender) {
        return new ViewChange(1, 0, Digest.of(new byte[0]), List.of(), List.of(), sender);
    }
}
