package org.bftws.rm;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * All sequences an RM destination (one Axis2 node) currently knows. Creation is idempotent per client UUID: a
 * retransmitted CreateSequence gets the same, already existing sequence, which is the paper's duplicate detection
 * for CreateSequence (3.3.1.1). Memory is bounded: at most {@code maxSequences} live sequences, terminated ones are
 * forgotten, each buffers at most {@code window} messages ahead of delivery, and one owner holds at most the limit
 * its group sets ({@code <limits maxSequencesPerClient>}), so no party can take every sequence a node can hold.
 */
public final class InboundSequences {

    private final Map<String, InboundSequence> byId = new ConcurrentHashMap<>();
    private final Map<String, String> byOffered = new ConcurrentHashMap<>();
    /** The counted owner of each live sequence, and how many each owner holds (owners "" are not counted). */
    private final Map<String, String> ownerOf = new java.util.HashMap<>();
    private final Map<String, Integer> perOwner = new java.util.HashMap<>();
    private final int maxSequences;
    private final long window;

    public InboundSequences(int maxSequences, long window) {
        if (maxSequences < 1 || window < 1) {
            throw new IllegalArgumentException("sequence limit and window must be positive");
        }
        this.maxSequences = maxSequences;
        this.window = window;
    }

    /**
     * Creates (or finds again) the sequence for a CreateSequence.
     *
     * @param clientUuid the BFT-WS client UUID from the extension element, or null for a plain WS-RM peer
     * @param endpoint   the group endpoint of the service, or the service's own address when it has no group
     * @param offeredId  the identifier in wsrm:Offer, or null
     * @param service    the Axis2 service the sequence is for
     * @param owner      the party that signed the CreateSequence ({@link SequenceIds}: the identifier names it)
     */
    public InboundSequence create(String clientUuid, URI endpoint, String offeredId, String service, String owner)
            throws CreateSequenceRefused {
        return create(clientUuid, endpoint, offeredId, service, owner, Integer.MAX_VALUE);
    }

    /** As {@link #create(String, URI, String, String, String)}, refusing a new sequence beyond {@code ownerLimit}. */
    public synchronized InboundSequence create(String clientUuid, URI endpoint, String offeredId, String service,
                                               String owner, int ownerLimit) throws CreateSequenceRefused {
        String id = clientUuid == null ? SequenceIds.random(owner) : SequenceIds.derive(clientUuid, endpoint, owner);
        InboundSequence existing = byId.get(id);
        if (existing != null) {
            if (!existing.service().equals(service)) {
                throw new CreateSequenceRefused("client UUID " + clientUuid + " already names a sequence of service "
                        + existing.service());
            }
            return existing;
        }
        if (offeredId != null && (byOffered.containsKey(offeredId) || byId.containsKey(offeredId))) {
            throw new CreateSequenceRefused("offered sequence identifier " + offeredId + " is already in use");
        }
        checkRoom(owner, ownerLimit);
        InboundSequence s = new InboundSequence(id, clientUuid, offeredId, service, window, false);
        byId.put(id, s);
        own(id, owner);
        if (offeredId != null) {
            byOffered.put(offeredId, id);
        }
        return s;
    }

    /**
     * BFT mode: takes on sequence {@code id} for a client request that arrived before (or without) its
     * CreateSequence. Every replica of a group derives the same identifier from the client's UUID, and the request
     * itself was authenticated, so the replica can serve the sequence; a CreateSequence arriving later finds it. Owner
     * {@code owner} ("" when not counted) holds at most {@code ownerLimit} sequences.
     */
    public synchronized InboundSequence adopt(String id, String service, String owner, int ownerLimit)
            throws CreateSequenceRefused {
        InboundSequence existing = byId.get(id);
        if (existing != null) {
            return existing;
        }
        checkRoom(owner, ownerLimit);
        InboundSequence s = new InboundSequence(id, null, null, service, window, true);
        byId.put(id, s);
        own(id, owner);
        return s;
    }

    private void checkRoom(String owner, int ownerLimit) throws CreateSequenceRefused {
        if (byId.size() >= maxSequences) {
            throw new CreateSequenceRefused("this node already has its maximum of " + maxSequences
                    + " open sequences; terminate finished sequences first");
        }
        if (owner != null && !owner.isEmpty() && perOwner.getOrDefault(owner, 0) >= ownerLimit) {
            throw new CreateSequenceRefused(owner + " already holds its maximum of " + ownerLimit + " open sequences"
                    + " on this node (replicas.xml <limits maxSequencesPerClient>); terminate finished sequences first",
                    true);
        }
    }

    private void own(String id, String owner) {
        if (owner != null && !owner.isEmpty()) {
            ownerOf.put(id, owner);
            perOwner.merge(owner, 1, Integer::sum);
        }
    }

    public Optional<InboundSequence> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** The inbound sequence whose client offered {@code offeredId} for replies. */
    public Optional<InboundSequence> findByOffered(String offeredId) {
        String id = byOffered.get(offeredId);
        return id == null ? Optional.empty() : find(id);
    }

    /** Forgets the sequence; returns it, or empty when it was not known. */
    public synchronized Optional<InboundSequence> terminate(String id) {
        InboundSequence s = byId.remove(id);
        String owner = ownerOf.remove(id);
        if (owner != null) {
            perOwner.computeIfPresent(owner, (o, n) -> n > 1 ? n - 1 : null);
        }
        if (s != null && s.offeredId() != null) {
            byOffered.remove(s.offeredId());
        }
        return Optional.ofNullable(s);
    }

    public int size() {
        return byId.size();
    }
}
