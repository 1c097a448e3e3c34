package org.bftws.axis2.client;

import java.io.IOException;
import java.net.URI;

import org.apache.http.HttpEntity;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.util.EntityUtils;
import org.bftws.axis2.RmCounters;
import org.bftws.axis2.RmHeaders;
import org.bftws.rm.AckRanges;
import org.bftws.rm.Backoff;
import org.bftws.rm.OutboundSequence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one serialised message to one node until that node acknowledged it with a final reply, retransmitting with
 * exponential backoff after a lost exchange (connection failure, timeout, 5xx other than a SOAP fault) or a WS-RM
 * "not yet" fault, and giving up after the limit. The final reply goes to the {@link ReplyCollector}.
 */
final class Transmission implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(Transmission.class);

    /** The message as serialised once for every node. */
    record Message(byte[] body, String contentType, String soapAction, OutboundSequence sequence, long number) {
    }

    private final CloseableHttpClient http;
    private final URI node;
    private final Message message;
    private final Backoff backoff;
    private final ReplyCollector collector;
    private final RmCounters counters;

    Transmission(CloseableHttpClient http, URI node, Message message, Backoff backoff, ReplyCollector collector,
                 RmCounters counters) {
        this.http = http;
        this.node = node;
        this.message = message;
        this.backoff = backoff;
        this.collector = collector;
        this.counters = counters;
    }

    @Override
    public void run() {
        String lastProblem = "not sent";
        for (int attempt = 0; ; attempt++) {
            if (attempt > 0) {
                if (!backoff.allows(attempt)) {
                    collector.failed(node, "no final reply after " + (attempt - 1) + " retransmissions; last: "
                            + lastProblem);
                    return;
                }
                counters.retransmissions.incrementAndGet();
                try {
                    Thread.sleep(backoff.delayBefore(attempt).toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    collector.failed(node, "interrupted");
                    return;
                }
            }
            try {
                NodeReply reply = post();
                if (reply.status() >= 300 && reply.status() != 500 && reply.status() != 400) {
                    lastProblem = "HTTP " + reply.status();
                    continue;
                }
                ResponseInspector.Inspection seen = ResponseInspector.inspect(reply);
                record(seen);
                if (seen.retry()) {
                    lastProblem = seen.fault();
                    continue;
                }
                collector.offer(reply);
                return;
            } catch (IOException | RuntimeException e) {
                lastProblem = e.toString();
                LOG.debug("attempt {} to {} failed: {}", attempt, node, e.toString());
            }
        }
    }

    private NodeReply post() throws IOException {
        HttpPost post = new HttpPost(node);
        post.setEntity(new ByteArrayEntity(message.body(), ContentType.parse(message.contentType())));
        if (message.soapAction() != null) {
            post.setHeader("SOAPAction", message.soapAction());
        }
        try (CloseableHttpResponse response = http.execute(post)) {
            HttpEntity entity = response.getEntity();
            byte[] body = entity == null ? new byte[0] : EntityUtils.toByteArray(entity);
            String type = entity == null || entity.getContentType() == null ? null : entity.getContentType().getValue();
            return new NodeReply(node, response.getStatusLine().getStatusCode(), type, body);
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

    static boolean covers(java.util.List<AckRanges.Range> ranges, long n) {
        return ranges.stream().anyMatch(r -> r.lower() <= n && n <= r.upper());
    }
}
