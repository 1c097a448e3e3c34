package org.bftws.axis2.client;

import org.bftws.voting.NodeReply;
import org.bftws.voting.ReplyCollector;
import org.bftws.voting.VotingCounters;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.bftws.core.Digest;
import org.bftws.core.Reply;
import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.core.Voter;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client Voter of one request to a replicated group (paper 3.3.1.5). Each node's reply is read and authenticated
 * on its own ({@link ReplyContent}, {@link ReplyAuthenticator}); what is not a readable SOAP reply, or not signed by
 * the node its endpoint belongs to, is dropped, counted and logged. Authentic replies go to the core {@link Voter}
 * as {@code Reply(request, view, canonical body, node id)}; once the policy's number of executors agree (f+1 by
 * default), one of the agreeing replicas' own replies is handed to Axis2. A SOAP fault is a result like any other.
 * Verification runs on the transmission threads in parallel; only the vote itself holds the lock.
 */
public final class VotingReplyCollector implements ReplyCollector {
    private static final Logger LOG = LoggerFactory.getLogger(VotingReplyCollector.class);

    /** What was decided: the view the agreeing replies vouch for and who agreed. */
    public record Decision(int view, List<String> agreeing) {
    }

    private record Counted(NodeReply reply, Digest result, boolean fault, boolean tentative, ReplyContent read) {
    }

    private final RequestId request;
    private final ReplyPolicy policy;
    private final int threshold;
    private final ReplyAuthenticator authenticator;
    private final String messageId;
    private final VotingCounters counters;
    private final Consumer<Decision> onDecision;
    private final Voter voter;
    private final List<URI> nodes;
    private final Map<URI, String> status = new LinkedHashMap<>();
    private final List<Counted> counted = new ArrayList<>();
    /** Nodes whose final reply was dropped or that gave up; with {@link #counted}, the nodes that are done. */
    private final Set<URI> uncounted = new HashSet<>();
    private NodeReply decided;
    private ReplyContent decidedRead;
    private boolean inconclusive;

    /**
     * @param destinations the group's nodes this request was sent to; those that execute are the eligible voters
     * @param onDecision   told once when a result is accepted (the view clients learn, the operation's property)
     */
    public VotingReplyCollector(RequestId request, ReplyPolicy policy, List<URI> destinations,
                                ReplyAuthenticator authenticator, VotingCounters counters,
                                Consumer<Decision> onDecision) {
        this(request, null, policy, destinations, authenticator, counters, onDecision);
    }

    /**
     * @param messageId the request's {@code wsa:MessageID}: a reply whose {@code wsa:RelatesTo} names another message
     *                  answers another request (an authentic reply replayed into this exchange) and does not count;
     *                  null to check nothing
     */
    public VotingReplyCollector(RequestId request, String messageId, ReplyPolicy policy, List<URI> destinations,
                                ReplyAuthenticator authenticator, VotingCounters counters,
                                Consumer<Decision> onDecision) {
        this.request = request;
        this.messageId = messageId == null || messageId.isEmpty() ? null : messageId;
        this.policy = policy;
        this.authenticator = authenticator;
        this.counters = counters;
        this.onDecision = onDecision;
        this.nodes = List.copyOf(destinations);
        Set<Integer> eligible = new HashSet<>();
        for (URI node : nodes) {
            if (authenticator.executes(node)) {
                eligible.add(authenticator.nodeAt(node));
            }
            status.put(node, "no final reply yet");
        }
        int f = authenticator.group().f();
        this.threshold = policy.threshold(f, eligible.size());
        this.voter = new Voter(request, f, eligible, policy);
    }

    @Override
    public void offer(NodeReply reply) {
        offer(reply, null);
    }

    /**
     * {@link #offer(NodeReply)} with the reply already read (its transmission read it to see whether it asks for a
     * retransmission): each reply is parsed once. {@code read} null: read it here.
     */
    void offer(NodeReply reply, ReplyContent read) {
        synchronized (this) {
            if (settled()) {
                counters.late.incrementAndGet();
                return;
            }
            if (!authenticator.executes(reply.node())) {
                // An agreement-only node (Configurations II, III) acknowledges the request; it never answers it.
                status.put(reply.node(), "acknowledged (orders, does not execute)");
                finished(reply.node());
                return;
            }
        }
        ReplyContent content;
        int node;
        try {
            content = read != null ? read : ReplyContent.read(reply);
            node = authenticator.authenticate(reply, content);
            if (messageId != null && content.relatesTo() != null && !messageId.equals(content.relatesTo())) {
                // authentic, but for another message: PBFT's client checks the timestamp its reply echoes likewise
                throw new SecurityRefusal(RefusalReason.MISDIRECTED, "it answers message " + content.relatesTo()
                        + ", not " + messageId);
            }
        } catch (SecurityRefusal refusal) {
            counters.refusals().refused(refusal, "reply to " + request + " from " + reply.node()); // logs it
            // what the node said, marked as unproven: a replica refuses a request that fails authentication with a
            // constant unsigned fault (a client with the wrong keys learns why here, and nothing counts it)
            drop(reply.node(), refusal.getMessage() + "; unauthenticated, it said: " + ReplyContent.summary(reply));
            return;
        } catch (RuntimeException e) {
            // not a SOAP reply, or the truststore cannot be read: this reply cannot count either way
            LOG.warn("reply to {} from {} dropped: {}", request, reply.node(), e.getMessage());
            drop(reply.node(), "not counted: " + e.getMessage());
            return;
        }
        vote(reply, content, node);
    }

    private synchronized void vote(NodeReply reply, ReplyContent content, int node) {
        if (settled()) {
            counters.late.incrementAndGet();
            return;
        }
        Counted earlier = counted.stream().filter(c -> c.reply().node().equals(reply.node())).findFirst().orElse(null);
        if ((earlier != null && !earlier.tentative()) || uncounted.contains(reply.node())) {
            return; // a node's first final reply is its answer; the Voter would ignore a second one too
        }
        if (earlier != null) {
            counted.remove(earlier); // its tentative reply: the answer after the commit replaces it (in the Voter too)
        }
        Voter.Outcome outcome = voter.add(new Reply(request, content.view(), content.canonical(), node,
                content.tentative()));
        Digest result = Digest.of(content.canonical());
        counted.add(new Counted(reply, result, content.fault(), content.tentative(), content));
        counters.counted.incrementAndGet();
        if (content.tentative()) {
            counters.tentative.incrementAndGet();
        }
        status.put(reply.node(), (content.fault() ? "fault " : "result ") + result.hex().substring(0, 12)
                + " in view " + content.view() + (content.tentative() ? " (tentative)" : ""));
        if (outcome.state() == Voter.State.ACCEPTED) {
            accept(outcome);
        } else if (outcome.state() == Voter.State.INCONCLUSIVE) {
            inconclusive = true;
            counters.inconclusive.incrementAndGet();
        }
        notifyAll();
    }

    private void accept(Voter.Outcome outcome) {
        Digest winner = Digest.of(outcome.result());
        List<String> agreeing = new ArrayList<>();
        for (Counted c : counted) {
            if (c.result().equals(winner)) {
                agreeing.add(nameOf(c.reply().node()));
                if (decided == null) {
                    // the status follows what the content says, whatever HTTP status the replica chose
                    int status = c.reply().isEmpty() ? c.reply().status() : c.fault() ? 500 : 200;
                    decided = new NodeReply(c.reply().node(), status, c.reply().contentType(), c.reply().body());
                    decidedRead = c.read();
                }
            }
        }
        for (Counted c : counted) {
            if (!c.result().equals(winner)) {
                counters.dissenting.incrementAndGet();
                LOG.warn("{} ({}) answered {} differently from {}, who agreed: {}", nameOf(c.reply().node()),
                        c.reply().node(), request, agreeing, ReplyContent.summary(c.reply()));
            }
        }
        counters.decided.incrementAndGet();
        onDecision.accept(new Decision(outcome.view(), List.copyOf(agreeing)));
    }

    private String nameOf(URI node) {
        return authenticator.directory().name(authenticator.nodeAt(node));
    }

    private synchronized void drop(URI node, String why) {
        counters.dropped.incrementAndGet();
        status.put(node, "dropped: " + why);
        finished(node);
    }

    @Override
    public synchronized void failed(URI node, String why) {
        status.put(node, "failed: " + why);
        finished(node);
    }

    private void finished(URI node) {
        uncounted.add(node);
        notifyAll();
    }

    /**
     * The envelope of the decided reply as the Voter read it (whole, from the very bytes {@link #await} returns, with
     * their content type's charset), null while none is decided or it was empty: Axis2 takes it instead of parsing the
     * bytes once more.
     */
    synchronized org.apache.axiom.soap.SOAPEnvelope decidedEnvelope() {
        return decidedRead == null ? null : decidedRead.envelope();
    }

    @Override
    public synchronized NodeReply await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!settled() && uncounted.size() + finalAnswers() < nodes.size()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        if (decided == null && !inconclusive) {
            counters.undecided.incrementAndGet();
        }
        return decided;
    }

    /** Nodes whose counted answer is final (not tentative, so no other answer of theirs is coming). */
    private long finalAnswers() {
        return counted.stream().filter(c -> !c.tentative() && !uncounted.contains(c.reply().node())).count();
    }

    @Override
    public synchronized boolean wantsMoreFrom(URI node) {
        return !settled() && !uncounted.contains(node)
                && counted.stream().anyMatch(c -> c.reply().node().equals(node) && c.tentative());
    }

    @Override
    public synchronized boolean awaitSettled(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!settled()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return settled();
    }

    @Override
    public synchronized boolean settled() {
        return decided != null || inconclusive;
    }

    @Override
    public synchronized String whyUndecided() {
        StringBuilder why = new StringBuilder(inconclusive ? "inconclusive: " : "undecided: ").append("policy ")
                .append(policy).append(" needs ").append(threshold)
                .append(" identical replies from distinct replicas;");
        for (Map.Entry<URI, String> e : status.entrySet()) {
            why.append(' ').append(nameOf(e.getKey())).append(" (")
                    .append(e.getKey()).append("): ").append(e.getValue());
            counted.stream().filter(c -> c.reply().node().equals(e.getKey())).findFirst()
                    .ifPresent(c -> why.append(" ").append(ReplyContent.summary(c.reply())));
            why.append(';');
        }
        return why.toString();
    }
}
