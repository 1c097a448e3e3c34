package org.bftws.bench.byzantine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.bftws.channels.ReplicaChannel;
import org.bftws.core.Destination;
import org.bftws.core.Message;
import org.bftws.core.StateSnapshot;

/**
 * {@code replay}: with every message it sends, the replica sends again two of its own older ones (prepares, commits,
 * checkpoints... of slots long settled), still validly authenticated. Its channel's filter of settled messages is
 * turned off, or it would leave them out. The correct replicas refuse the ones below their low watermark, counted
 * as {@code dropped inputs from node N}.
 */
final class Replay extends LyingChannel {

    /** Sent messages kept to replay, and how recent a replayed one may be at most. */
    private static final int HISTORY = 4096;
    private static final int NOT_NEWER_THAN = 24;

    private final List<Message> history = new ArrayList<>();

    Replay(ReplicaChannel real, int self) {
        super(real, self);
    }

    @Override
    synchronized void lie(Destination to, Message m) {
        real.send(to, m);
        if (m instanceof StateSnapshot) {
            return; // megabytes: not kept
        }
        if (history.size() > NOT_NEWER_THAN) {
            for (int i = 0; i < 2; i++) {
                Message old = history.get(ThreadLocalRandom.current().nextInt(history.size() - NOT_NEWER_THAN));
                real.send(new Destination.AllNodes(), old);
                lied();
            }
        }
        if (m.sender() == self) {
            history.add(m);
            if (history.size() > HISTORY) {
                history.subList(0, HISTORY / 2).clear();
            }
        }
    }

    @Override
    public void stableCheckpointIs(long seq) {
        // not passed on: the real channel keeps 0, so settled copies go out too
    }
}
