package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import org.bftws.voting.ReplyCollector;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;

import org.apache.http.HttpEntity;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.util.EntityUtils;
import org.bftws.rm.RmCounters;
import org.bftws.axis2.rm.RmHeaders;
import org.bftws.rm.Backoff;
import org.bftws.rm.OutboundSequence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one serialised message to one node until that node acknowledged it with a final reply, retransmitting with
 * exponential backoff after a lost exchange (connection failure, no answer within the attempt timeout, 5xx other than
 * a SOAP fault) or a WS-RM "not yet" fault, and giving up after the limit, or as soon as the collector has settled
 * when the schedule says so. The final reply goes to the {@link ReplyCollector}. Only lost exchanges count against
 * the retransmission limit: a "retry later" answer (a replica holding more waiting exchanges than it may, or whose
 * reply is not ready) says the node is up and has the message, so it is asked again, after the backoff, until the
 * call's whole wait ({@link Schedule#totalMillis()}) is over. Counting those answers against the limit made clients
 * beyond a replica's capacity fail: with 256 appending clients on the 2-core testbed a call got "retry later" from
 * three replicas nine times each and ended undecided although every replica executed it.
 */
final class Transmission implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Transmission.class);
    /** A longer reply is refused rather than read into memory: a faulty node must not exhaust the client's heap. */
    static final int MAX_REPLY_BYTES = 32 * 1024 * 1024;

    /** The message as serialised once for every node. */
    record Message(byte[] body, String contentType, String soapAction, OutboundSequence sequence, long number) {
    }

    /**
     * @param attemptMillis   how long one attempt waits for the node's answer before it counts as lost
     * @param stopWhenSettled no retransmission once the collector has settled (BFT groups)
     */
    record Schedule(Backoff backoff, long attemptMillis, boolean stopWhenSettled) {

        /**
         * How long a call waits for its reply at most: every attempt the backoff allows, each waited for in full,
         * the pauses between them, and a second. A node that keeps answering "retry later" is asked until then.
         */
        long totalMillis() {
            long total = 0;
            for (int k = 1; k <= backoff.maxRetransmissions(); k++) {
                total += backoff.delayBefore(k).toMillis() + attemptMillis;
            }
            return total + attemptMillis + 1_000;
        }
    }

    /** The node's answer exceeds {@link #MAX_REPLY_BYTES}; final, sending again would not make it shorter. */
    private static final class OversizedReply extends IOException {
        private static final long serialVersionUID = 1L;

        OversizedReply(long length) {
            super("reply of " + (length < 0 ? "more than " + MAX_REPLY_BYTES : Long.toString(length))
                    + " bytes exceeds the limit of " + MAX_REPLY_BYTES);
        }
    }

    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;
    /** An answer that took this long (a replica held the exchange through a view change, say) is logged at debug. */
    private static final long SLOW_ANSWER_MILLIS = 300;

    private final CloseableHttpClient http;
    private final URI node;
    private final Message message;
    private final Schedule schedule;
    private final ReplyCollector collector;
    private final RmCounters counters;
    /** The attempt in flight, so {@link #abandon()} can cut it short. */
    private volatile HttpPost current;
    private volatile boolean abandoned;

    Transmission(CloseableHttpClient http, URI node, Message message, Schedule schedule, ReplyCollector collector,
                 RmCounters counters) {
        this.http = http;
        this.node = node;
        this.message = message;
        this.schedule = schedule;
        this.collector = collector;
        this.counters = counters;
    }

    /**
     * Stops waiting for this node: the vote was decided without it. An attempt in flight is aborted (its connection
     * is closed, not returned to the pool) and nothing is sent again.
     */
    void abandon() {
        abandoned = true;
        HttpPost p = current;
        if (p != null) {
            p.abort();
        }
    }

    @Override
    public void run() {
        String lastProblem = "not sent";
        Backoff backoff = schedule.backoff();
        long firstSent = System.nanoTime();
        long giveUpAt = firstSent + schedule.totalMillis() * 1_000_000;
        int charged = 0; // retransmissions after lost exchanges: the limit counts these
        boolean retryLater = false;
        boolean tentative = false; // the node answered tentatively: ask again unless the vote settles meanwhile
        for (int attempt = 0; ; attempt++) {
            if (attempt > 0) {
                if (abandoned || schedule.stopWhenSettled() && collector.settled()) {
                    LOG.debug("{}: decided without {}, no retransmission after: {}", message.number(), node,
                            lastProblem);
                    return;
                }
                if (retryLater ? System.nanoTime() - giveUpAt >= 0 : !backoff.allows(charged + 1)) {
                    collector.failed(node, "no final reply after " + (attempt - 1) + " retransmissions; last: "
                            + lastProblem);
                    return;
                }
                if (!retryLater) {
                    charged++;
                }
                try {
                    long delay = backoff.delayBefore(attempt).toMillis();
                    if (!tentative) {
                        Thread.sleep(delay);
                    } else if (collector.awaitSettled(delay)) {
                        return; // decided meanwhile: the committed answer is not needed
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    collector.failed(node, "interrupted");
                    return;
                }
                counters.retransmissions.incrementAndGet();
            }
            retryLater = false;
            tentative = false;
            try {
                NodeReply reply = post();
                if (reply.status() >= 300 && reply.status() != 500 && reply.status() != 400) {
                    lastProblem = "HTTP " + reply.status();
                    continue;
                }
                // a reply the Voter will read is parsed once, for both; one after the decision the Voter never reads
                ReplyContent read = collector instanceof VotingReplyCollector && !collector.settled()
                        ? ReplyContent.readable(reply) : null;
                ResponseInspector.Inspection seen = read != null && read.envelope() != null
                        ? ResponseInspector.inspect(read.envelope()) : ResponseInspector.inspect(reply);
                record(seen);
                if (seen.retry()) {
                    counters.retryLaterReceived.incrementAndGet();
                    retryLater = true;
                    lastProblem = seen.fault();
                    continue;
                }
                long tookMillis = (System.nanoTime() - firstSent) / 1_000_000;
                if (attempt > 0 || tookMillis >= SLOW_ANSWER_MILLIS) {
                    LOG.debug("{} to {}: final answer (HTTP {}) at attempt {}, {} ms after the first was sent",
                            message.number(), node, reply.status(), attempt, tookMillis);
                }
                if (read != null) {
                    ((VotingReplyCollector) collector).offer(reply, read);
                } else {
                    collector.offer(reply);
                }
                if (!collector.wantsMoreFrom(node)) {
                    return;
                }
                // Until giveUpAt, like retry-later answers: the committed answer comes once the batch commits.
                tentative = true;
                retryLater = true;
                lastProblem = "only a tentative reply";
                continue;
            } catch (OversizedReply e) {
                collector.failed(node, e.getMessage());
                return;
            } catch (IOException | RuntimeException e) {
                if (abandoned) {
                    LOG.debug("{}: decided without {}; stopped waiting for it", message.number(), node);
                    return;
                }
                lastProblem = e.toString();
                LOG.debug("{}: attempt {} to {} failed {} ms after the first was sent: {}", message.number(), attempt,
                        node, (System.nanoTime() - firstSent) / 1_000_000, e.toString());
            } finally {
                current = null;
            }
        }
    }

    private NodeReply post() throws IOException {
        HttpPost post = new HttpPost(node);
        post.setConfig(RequestConfig.custom().setConnectTimeout(CONNECT_TIMEOUT_MILLIS)
                .setSocketTimeout((int) Math.min(Integer.MAX_VALUE, schedule.attemptMillis())).build());
        post.setEntity(new ByteArrayEntity(message.body(), ContentType.parse(message.contentType())));
        if (message.soapAction() != null) {
            post.setHeader("SOAPAction", message.soapAction());
        }
        current = post;
        if (abandoned) {
            throw new IOException("abandoned: the vote was decided without this node");
        }
        try (CloseableHttpResponse response = http.execute(post)) {
            HttpEntity entity = response.getEntity();
            byte[] body = entity == null ? new byte[0] : bounded(entity);
            String type = entity == null || entity.getContentType() == null ? null : entity.getContentType().getValue();
            return new NodeReply(node, response.getStatusLine().getStatusCode(), type, body);
        }
    }

    private static byte[] bounded(HttpEntity entity) throws IOException {
        if (entity.getContentLength() > MAX_REPLY_BYTES) {
            EntityUtils.consumeQuietly(entity);
            throw new OversizedReply(entity.getContentLength());
        }
        try (InputStream in = entity.getContent()) {
            if (in == null) {
                return new byte[0];
            }
            byte[] body = in.readNBytes(MAX_REPLY_BYTES + 1);
            if (body.length > MAX_REPLY_BYTES) {
                throw new OversizedReply(-1);
            }
            return body;
        }
    }

    private void record(ResponseInspector.Inspection seen) {
        OutboundSequence s = message.sequence();
        if (s == null) {
            return;
        }
        for (RmHeaders.Ack ack : seen.acks()) {
            if (ack.id().equals(s.id())) {
                try {
                    s.acknowledged(node.toString(), ack.ranges());
                } catch (IllegalArgumentException e) {
                    LOG.warn("{} sent an invalid acknowledgement: {}", node, e.getMessage());
                }
            }
        }
        if (!seen.acks().isEmpty() && !s.isAcknowledged(node.toString(), message.number())) {
            LOG.debug("{} answered message {} without acknowledging it", node, message.number());
        }
    }
}
