package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import org.bftws.voting.SignedReplies;
import org.bftws.voting.VotingCounters;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.wire.KeyedGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prints what the client Voter costs per reply on this machine: reading and canonicalising a signed echo reply, and
 * verifying its WS-Security signature (RSA-2048, keygen's keys), and a whole f+1 decision. A measurement, not a
 * test: {@code mvn -B -pl bftws-module -am test -Dtest=VotingFigures -Dbftws.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "bftws.bench", matches = "true")
class VotingFigures {
    private static final int WARMUP = 500;
    private static final int SAMPLES = 2_000;

    @TempDir
    Path dir;

    @Test
    void printTheCostOfAuthenticatingAndCountingReplies() throws Exception {
        KeyedGroup group = new KeyedGroup(dir, "wssec", "EchoService", 9301, 9302, 9303, 9304);
        SignedReplies replies = new SignedReplies(group);
        StringBuilder items = new StringBuilder("<e:echoResponse xmlns:e=\"urn:echo\">");
        for (int i = 0; i < 10; i++) {
            items.append("<e:item>0123456789</e:item>");
        }
        String body = items.append("</e:echoResponse>").toString();
        NodeReply r0 = replies.from(0, body);
        NodeReply r1 = replies.from(1, body);
        ReplyAuthenticator authenticator = new ReplyAuthenticator(group.group, group.config.keys());
        System.out.printf("signed echo reply (10 items): %d bytes%n", r0.body().length);
        print("read and canonicalise one reply", time(() -> ReplyContent.read(r0)));
        ReplyContent read0 = ReplyContent.read(r0);
        print("verify one reply's signature and signer", time(() -> authenticator.authenticate(r0, read0)));
        List<URI> nodes = group.group.nodes().stream().map(n -> n.serviceEndpoint()).toList();
        VotingCounters counters = new VotingCounters();
        print("decide f+1 = 2 replies (both read, verified, voted)", time(() -> {
            VotingReplyCollector c = new VotingReplyCollector(new RequestId("urn:uuid:s", 1), ReplyPolicy.WEAK_QUORUM,
                    nodes, authenticator, counters, d -> { });
            c.offer(r0);
            c.offer(r1);
            if (c.await(0, TimeUnit.MILLISECONDS) == null) {
                throw new IllegalStateException(c.whyUndecided());
            }
        }));
    }

    private interface Step {
        void run() throws Exception;
    }

    private static long[] time(Step step) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            step.run();
        }
        long[] nanos = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            long t0 = System.nanoTime();
            step.run();
            nanos[i] = System.nanoTime() - t0;
        }
        return nanos;
    }

    private static void print(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%s: median %.3f ms, mean %.3f ms, p99 %.3f ms%n", what, sorted[sorted.length / 2] / 1e6,
                Arrays.stream(nanos).sum() / 1e6 / nanos.length, sorted[sorted.length * 99 / 100] / 1e6);
    }
}
