package org.bftws.axis2.client;

import org.bftws.voting.FirstReply;
import org.bftws.voting.ReplyCollector;
import org.bftws.voting.Target;
import org.bftws.voting.VotingCounters;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.core.ReplyPolicy;
import org.bftws.core.RequestId;
import org.bftws.rm.OutboundSequence;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.security.mac.MacAuthenticator;

/**
 * How a client node decides replies (installed in the {@link MulticastSender} by the module, so the plain Axis2
 * route votes as soon as the module is engaged): a group endpoint gets a {@link VotingReplyCollector}, a direct
 * endpoint {@link FirstReply}. Keeps, per group, the replies' authenticator (its truststore is loaded once), the
 * last view accepted from the group, and the counters. Thread-safe.
 */
public final class ReplyVoting {

    /**
     * Options property: the operation's {@link ReplyPolicy} (the enum or its name, any case). Default: WEAK_QUORUM
     * (f+1 identical replies); STRONG_QUORUM (2f+1) for a Configuration I group that declares read-only operations
     * ({@link #writesNeedStrongQuorum}); FIRST for a
     * group whose BFT is switched off.
     */
    public static final String REPLY_POLICY = "bftws.replyPolicy";
    /** OperationContext property after a decided call: the view (Integer) the agreeing replies vouched for. */
    public static final String ACCEPTED_VIEW = "bftws.acceptedView";
    /** OperationContext property after a decided call: the names (List of String) of the agreeing replicas. */
    public static final String AGREEING = "bftws.agreeingReplicas";

    private final ReplicasConfig replicas;
    private final VotingCounters counters = new VotingCounters();
    private final Map<String, ReplyAuthenticator> authenticators = new ConcurrentHashMap<>();
    private final Map<String, Integer> views = new ConcurrentHashMap<>();

    public ReplyVoting(ReplicasConfig replicas) {
        this.replicas = replicas;
    }

    /** The collector for one message to {@code target}; the factory MulticastSender calls. */
    public ReplyCollector collectorFor(Target target, MessageContext message) {
        GroupConfig group = target.group();
        if (group == null) {
            return new FirstReply();
        }
        ReplyAuthenticator authenticator = authenticators.computeIfAbsent(group.service(),
                s -> new ReplyAuthenticator(group, replicas.keys(), macProfile(message)));
        OperationContext operation = message.getOperationContext();
        boolean read = message.getProperty(ReadOnlyCall.PROPERTY) != null;
        // a read is accepted on 2f+1 identical replies whatever the operation's policy (docs/protocol.md)
        ReplyPolicy policy = read ? ReplyPolicy.STRONG_QUORUM : policyOf(message, group);
        return new VotingReplyCollector(requestOf(message), message.getMessageID(), policy,
                target.destinations(), authenticator, counters, decision -> {
                    if (!read) { // a read's replies state no view: nothing ordered them
                        views.merge(group.service(), decision.view(), Math::max);
                    }
                    if (operation != null) {
                        operation.setProperty(ACCEPTED_VIEW, decision.view());
                        operation.setProperty(AGREEING, decision.agreeing());
                    }
                });
    }

    /** The calling party's mac profile, to check MAC-authenticated replies; null when it has no name. */
    private static MacAuthenticator macProfile(MessageContext message) {
        ConfigurationContext context = message.getConfigurationContext();
        return context == null ? null : SecurityRuntime.of(context).macProfile().orElse(null);
    }

    /**
     * The highest view any accepted reply from {@code group} vouched for (f+1 replicas, so at least one correct
     * replica was in it); empty before the first decided call.
     */
    public OptionalInt lastView(GroupConfig group) {
        Integer v = views.get(group.service());
        return v == null ? OptionalInt.empty() : OptionalInt.of(v);
    }

    public VotingCounters counters() {
        return counters;
    }

    /** The policy the message's options ask for; IllegalArgumentException naming the choices for an unknown one. */
    static ReplyPolicy policyOf(MessageContext message, GroupConfig group) {
        Object value = message.getOptions() == null ? null : message.getOptions().getProperty(REPLY_POLICY);
        if (value == null) {
            value = message.getProperty(REPLY_POLICY);
        }
        if (value == null) {
            // WS-RM protocol messages (CreateSequence, TerminateSequence) change no state a read sees
            boolean application = !org.bftws.rm.Wsrm.isControlAction(message.getWSAAction());
            return group.wsrmOnly() ? ReplyPolicy.FIRST
                    : application && writesNeedStrongQuorum(group) ? ReplyPolicy.STRONG_QUORUM : ReplyPolicy.WEAK_QUORUM;
        }
        if (value instanceof ReplyPolicy p) {
            return p;
        }
        try {
            return ReplyPolicy.valueOf(String.valueOf(value).trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option " + REPLY_POLICY + " is '" + value + "'; it must be one of "
                    + java.util.Arrays.toString(ReplyPolicy.values()), e);
        }
    }

    /**
     * Whether an ordered call to {@code group} is decided on 2f+1 replies by default. A read accepted on 2f+1
     * identical replies is linearizable only if its quorum holds a correct executor that executed every write
     * completed before the read began: writes decided by w replies of n executors, reads by r, need w + r > n + f.
     * With 2f+1 executors (Configurations II, III) r = 2f+1 is every executor and w = f+1 will do; with 3f+1
     * (Configuration I) r = 2f+1 needs w = 2f+1 (with f+1, the f+1 replicas that executed a write, one of them faulty,
     * may all miss the read's quorum; the simulator's oracle finds such a stale read, SimulatedSchedulesTest).
     */
    static boolean writesNeedStrongQuorum(GroupConfig group) {
        return group.hasReadOnlyOperations() && group.executionNodes().size() >= 3 * group.f() + 1;
    }

    /**
     * The request's id as the replicas know it: its WS-RM sequence and message number. WS-RM protocol messages
     * (CreateSequence, TerminateSequence) have none; their wsa:MessageID stands in, since only this vote uses it.
     */
    static RequestId requestOf(MessageContext message) {
        Object seq = message.getProperty(MulticastSender.SEQUENCE);
        Object n = message.getProperty(MulticastSender.MESSAGE_NUMBER);
        if (seq instanceof OutboundSequence s && n instanceof Long number) {
            return new RequestId(s.id(), number);
        }
        String id = message.getMessageID();
        return new RequestId(id == null || id.isEmpty() ? "urn:bftws:unsequenced" : id, 1);
    }
}
