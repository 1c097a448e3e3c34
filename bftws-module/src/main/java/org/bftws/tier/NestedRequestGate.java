package org.bftws.tier;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.core.Digest;
import org.bftws.core.NestedRequestFilter;
import org.bftws.core.Request;
import org.bftws.core.RequestId;

/**
 * The callee's filter for nested requests (paper 3.4), around the core's {@link NestedRequestFilter}: a copy of
 * message k of a caller group's virtual sequence is held until p+1 caller replicas sent identical copies; then the
 * copy that completed the quorum goes on to be ordered, the identical copies held so far join it (each gets the
 * reply), and differing ones are refused. Copies are compared by what every correct caller replica sends alike (the
 * {@code content}: every header but the sender's own security header, and the body, in canonical form), never by
 * their bytes, which carry each replica's own signature; the admitted request is named by that content
 * ({@link Request#identified}), so every callee replica orders the same request whichever copy completed its quorum. A caller replica's request on any other sequence, and anybody else's request on a virtual sequence, is
 * refused. Generic in the handle {@code C} of a held copy (the Axis2 message context) so it can be tested alone.
 */
public final class NestedRequestGate<C> {

    /** What becomes of one copy. */
    public sealed interface Verdict<C> {
    }

    /** Refused with the reason, which the sender gets in a fault. */
    public record Refused<C>(String reason) implements Verdict<C> {
    }

    /** Counted and held: fewer than p+1 identical copies so far. */
    public record Held<C>() implements Verdict<C> {
    }

    /** This copy completed the quorum and is to be ordered; held copies that {@code join} or are {@code refused}. */
    public record Admitted<C>(List<C> join, List<C> refused) implements Verdict<C> {
    }

    /** An identical copy of a request admitted before: the ordinary path answers it (wait or last-reply table). */
    public record AlreadyAdmitted<C>() implements Verdict<C> {
    }

    /** The copies still held for numbers executed meanwhile: identical ones {@code join}, others are refused. */
    public record Settled<C>(List<C> join, List<C> refused) {
    }

    private record Copy<C>(Digest digest, List<C> held, List<Long> since) {
    }

    /** One caller group: its virtual sequence to this callee, its replicas' ids and the copies counted so far. */
    private final class Caller {
        final GroupConfig group;
        final String sequenceId;
        final Map<String, Integer> ids = new HashMap<>();
        final NestedRequestFilter filter;
        final TreeMap<Long, Map<Integer, Copy<C>>> waiting = new TreeMap<>();
        final Map<Long, Digest> admitted = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Digest> eldest) {
                return size() > remembered;
            }
        };

        Caller(GroupConfig group, URI callee) {
            this.group = group;
            this.sequenceId = NestedSequences.sequenceId(group, callee);
            for (NodeConfig n : group.executionNodes()) {
                ids.put(n.name().toLowerCase(Locale.ROOT), n.id());
            }
            this.filter = new NestedRequestFilter(group.f(), java.util.Set.copyOf(ids.values()), window);
        }
    }

    private final Map<String, Caller> bySequence = new HashMap<>();
    private final Map<String, Caller> byNode = new HashMap<>();
    private final int window;
    private final int remembered;

    /**
     * @param callee  this group's endpoint (the virtual sequences' identifiers derive from it)
     * @param callers the groups allowed to call it
     * @param window  how far beyond the lowest number not yet admitted copies are counted
     */
    public NestedRequestGate(URI callee, List<GroupConfig> callers, int window) {
        this.window = window;
        this.remembered = Math.max(window, 1024);
        for (GroupConfig g : callers) {
            Caller c = new Caller(g, callee);
            bySequence.put(c.sequenceId, c);
            c.ids.keySet().forEach(name -> byNode.put(name, c));
        }
    }

    /** Whether a request on {@code sequenceId} signed by {@code signer} is this gate's business. */
    public boolean concerns(String sequenceId, String signer) {
        return bySequence.containsKey(sequenceId) || (signer != null && byNode.containsKey(lower(signer)));
    }

    /** The caller group {@code signer} is a replica of, or null. */
    public GroupConfig callerGroupOf(String signer) {
        Caller c = signer == null ? null : byNode.get(lower(signer));
        return c == null ? null : c.group;
    }

    /** Whether {@code sequenceId} is a caller group's virtual sequence to this group. */
    public boolean isVirtualSequence(String sequenceId) {
        return bySequence.containsKey(sequenceId);
    }

    /**
     * Judges one copy of message {@code n} on {@code sequenceId}, signed by {@code signer} (null: unauthenticated).
     *
     * @param content what identical copies share (every header but the security header, and the body, canonical)
     * @param copy    the handle to keep while the copy is held
     */
    public synchronized Verdict<C> admit(String sequenceId, long n, String signer, byte[] content, C copy,
                                         long nowNanos) {
        Caller bySeq = bySequence.get(sequenceId);
        Caller bySigner = signer == null ? null : byNode.get(lower(signer));
        if (signer == null) {
            return new Refused<>("a request on the virtual sequence of group " + bySeq.group.service()
                    + " must be signed by one of its replicas; this one is not authenticated");
        }
        if (bySeq == null) {
            return new Refused<>(signer + " is a replica of group " + bySigner.group.service() + ": its requests to "
                    + "this group are nested calls and must use the group's virtual sequence "
                    + bySigner.sequenceId + ", not " + sequenceId);
        }
        if (bySigner != bySeq) {
            return new Refused<>(signer + " is not a replica of group " + bySeq.group.service() + ", whose virtual "
                    + "sequence " + sequenceId + " this is");
        }
        Caller c = bySeq;
        int id = c.ids.get(lower(signer));
        RequestId rid = new RequestId(sequenceId, n);
        Digest digest = Request.identityDigest(rid, content);
        if (c.filter.isAccepted(n)) {
            Digest accepted = c.admitted.get(n);
            if (accepted == null) {
                return new Refused<>("message " + n + " of " + sequenceId + " was executed long ago (more than "
                        + remembered + " nested requests back) or before this replica restarted; its copies are no "
                        + "longer compared, and the other replicas have its reply");
            }
            return accepted.equals(digest) ? new AlreadyAdmitted<>() : new Refused<>("the copy of message " + n
                    + " from " + signer + " differs from the one " + (c.group.f() + 1) + " replicas of group "
                    + c.group.service() + " sent, which was admitted");
        }
        if (!c.filter.counts(n)) {
            return new Refused<>("message " + n + " of " + sequenceId + " lies beyond the window of " + window
                    + " nested requests this replica counts copies for; send it again later");
        }
        Map<Integer, Copy<C>> atN = c.waiting.computeIfAbsent(n, k -> new HashMap<>());
        Copy<C> earlier = atN.get(id);
        if (earlier != null) {
            if (!earlier.digest().equals(digest)) {
                return new Refused<>(signer + " sent a different copy of message " + n + " of " + sequenceId
                        + " before; a caller replica's copy cannot change");
            }
            earlier.held().add(copy); // a retransmission of a copy that is still waiting
            earlier.since().add(nowNanos);
            return new Held<>();
        }
        atN.put(id, new Copy<>(digest, new ArrayList<>(List.of(copy)), new ArrayList<>(List.of(nowNanos))));
        if (c.filter.add(id, Request.identified(rid, content, content)) == null) {
            return new Held<>();
        }
        c.admitted.put(n, digest);
        List<C> join = new ArrayList<>();
        List<C> refused = new ArrayList<>();
        for (Map.Entry<Integer, Copy<C>> e : c.waiting.remove(n).entrySet()) {
            List<C> handles = e.getValue().held();
            if (e.getKey() == id) {
                handles.remove(copy);
            }
            (e.getValue().digest().equals(digest) ? join : refused).addAll(handles);
        }
        return new Admitted<>(join, refused);
    }

    /**
     * Whether {@code identity} (a {@link Request#identityDigest} over a copy's content) names what the quorum of
     * caller replicas sent for message {@code n} of {@code sequenceId}, as this gate admitted it: then any caller
     * replica's copy with this content is that request (a body another callee replica relays may carry another caller
     * replica's signature than the copy admitted here). False when the message was not admitted here (yet), or too
     * long ago to be remembered.
     */
    public synchronized boolean admittedWith(String sequenceId, long n, Digest identity) {
        Caller c = bySequence.get(sequenceId);
        if (c == null || n < 1 || !c.filter.isAccepted(n)) {
            return false;
        }
        Digest accepted = c.admitted.get(n);
        return accepted != null && accepted.equals(identity);
    }

    /**
     * Message {@code n} of {@code sequenceId} was executed here: the group committed it, so correct replicas counted
     * p+1 identical copies of it, and numbers before it were executed earlier (a correct caller replica makes call
     * k+1 only after call k was answered). Counting copies up to {@code n} ends here too: a replica that restarted or
     * installed a checkpoint counts from its executed prefix again, not from 1 (beyond its window it would admit
     * nothing, and take no part in ordering nested requests). {@code executed} is the executed request's digest, the
     * {@link Request#identityDigest} of its content as {@link #admit} compares copies. Returns the copies still held
     * for {@code n} and before.
     */
    public synchronized Settled<C> executed(String sequenceId, long n, Digest executed) {
        Caller c = bySequence.get(sequenceId);
        if (c == null || n < 1) {
            return new Settled<>(List.of(), List.of());
        }
        c.admitted.putIfAbsent(n, executed);
        c.filter.acceptedThrough(n);
        List<C> join = new ArrayList<>();
        List<C> refused = new ArrayList<>();
        Map<Long, Map<Integer, Copy<C>>> settled = c.waiting.headMap(n, true);
        for (Map.Entry<Long, Map<Integer, Copy<C>>> atNumber : settled.entrySet()) {
            for (Copy<C> copy : atNumber.getValue().values()) {
                boolean same = atNumber.getKey() == n && copy.digest().equals(executed);
                (same ? join : refused).addAll(copy.held());
            }
        }
        settled.clear();
        return new Settled<>(join, refused);
    }

    /** Copies held now: counted, fewer than p+1 identical ones so far, each waiting to be admitted or to expire. */
    public synchronized int heldCopies() {
        int n = 0;
        for (Caller c : bySequence.values()) {
            for (Map<Integer, Copy<C>> atN : c.waiting.values()) {
                for (Copy<C> copy : atN.values()) {
                    n += copy.held().size();
                }
            }
        }
        return n;
    }

    /**
     * Held copies waiting since before {@code olderThanNanos}: they are to be answered "retry later" now. They stay
     * counted, so the sender's retransmission is held again and the quorum can still form.
     */
    public synchronized List<C> expire(long olderThanNanos) {
        List<C> expired = new ArrayList<>();
        for (Caller c : bySequence.values()) {
            for (Map<Integer, Copy<C>> atN : c.waiting.values()) {
                for (Copy<C> copy : atN.values()) {
                    Iterator<Long> since = copy.since().iterator();
                    Iterator<C> held = copy.held().iterator();
                    while (since.hasNext()) {
                        long t = since.next();
                        C h = held.next();
                        if (t < olderThanNanos) {
                            since.remove();
                            held.remove();
                            expired.add(h);
                        }
                    }
                }
            }
        }
        return expired;
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
