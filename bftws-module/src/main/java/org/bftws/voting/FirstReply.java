package org.bftws.voting;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Takes the first final reply: one node (direct endpoint or a WS-RM-only group), nothing to vote on. */
public final class FirstReply implements ReplyCollector {

    private final CountDownLatch done = new CountDownLatch(1);
    private volatile NodeReply reply;
    private volatile String why = "no reply yet";

    @Override
    public void offer(NodeReply r) {
        if (reply == null) {
            reply = r;
        }
        done.countDown();
    }

    @Override
    public void failed(URI node, String reason) {
        why = node + ": " + reason;
        done.countDown();
    }

    @Override
    public NodeReply await(long timeout, TimeUnit unit) throws InterruptedException {
        done.await(timeout, unit);
        return reply;
    }

    @Override
    public String whyUndecided() {
        return why;
    }
}
