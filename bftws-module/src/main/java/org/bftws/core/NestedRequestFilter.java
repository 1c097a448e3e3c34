package org.bftws.core;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A replicated caller's nested requests (paper 3.4): a server accepts request k of the caller group's virtual
 * sequence only after p+1 identical copies from distinct caller replicas, where p is the number of faults the caller
 * tolerates. One faulty caller replica can then neither inject a request nor, by sending first, crowd out the correct
 * replicas' one. Each request is accepted once.
 */
public final class NestedRequestFilter {

    private final int p;
    private final Set<Integer> callers;
    /** Per message number not yet accepted: the digest each caller replica sent. */
    private final TreeMap<Long, Map<Integer, Digest>> copies = new TreeMap<>();
    private final Set<Long> accepted = new HashSet<>();
    private long acceptedBelow;
    private final int window;

    /**
     * @param p       faults the calling group tolerates
     * @param callers ids of the calling group's replicas
     * @param window  how far beyond the lowest unaccepted number copies are kept (bounds memory)
     */
    public NestedRequestFilter(int p, Set<Integer> callers, int window) {
        this.p = p;
        this.callers = Set.copyOf(callers);
        this.window = window;
    }

    /** Whether a copy of number {@code n} would be counted now: not yet accepted and within the window. */
    public boolean counts(long n) {
        return n > acceptedBelow && !accepted.contains(n) && n <= acceptedBelow + window;
    }

    /** Whether number {@code n} was accepted. */
    public boolean isAccepted(long n) {
        return n > 0 && (n <= acceptedBelow || accepted.contains(n));
    }

    /**
     * Numbers up to {@code n} were executed (the group committed them, so p+1 caller replicas' copies were counted by
     * correct replicas): they count as accepted, and the window moves past them. A replica that restarted, or
     * installed a checkpoint, counts from its executed prefix again instead of from 1.
     */
    public void acceptedThrough(long n) {
        if (n <= acceptedBelow) {
            return;
        }
        acceptedBelow = n;
        copies.headMap(n, true).clear();
        accepted.removeIf(a -> a <= n);
        while (accepted.remove(acceptedBelow + 1)) {
            acceptedBelow++;
        }
    }

    /** Counts one caller replica's copy; returns the request when this copy made it accepted, else null. */
    public Request add(int caller, Request copy) {
        long n = copy.id().number();
        if (!callers.contains(caller) || n <= acceptedBelow || accepted.contains(n) || n > acceptedBelow + window) {
            return null;
        }
        Map<Integer, Digest> atN = copies.computeIfAbsent(n, k -> new TreeMap<>());
        if (atN.putIfAbsent(caller, copy.digest()) != null) {
            return null;
        }
        long identical = atN.values().stream().filter(copy.digest()::equals).count();
        if (identical < p + 1) {
            return null;
        }
        copies.remove(n);
        accepted.add(n);
        while (accepted.remove(acceptedBelow + 1)) {
            acceptedBelow++;
        }
        return copy;
    }
}
