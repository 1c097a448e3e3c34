package org.bftws.sim;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.bftws.core.Membership;
import org.bftws.core.Request;
import org.bftws.core.RequestId;

/**
 * What the flooding faulty client sends (issue 34, {@link Scenario.Flood}): many requests a tick on sequences it keeps
 * opening, whose MAC authenticators verify nowhere, at the current primary only, at its backups only, or at f+1
 * random agreement nodes, and now and then more variants of one request id than a node keeps. It never retransmits
 * and never waits for a reply; {@link SimClient} sends for it.
 */
final class FloodingClient {
    private final String name;
    private final Scenario.Flood flood;
    private final Membership membership;
    private final Random rnd;
    private final boolean timed;
    private int sent;
    private int generation;
    private String sequence;
    private long next;

    FloodingClient(String name, Scenario.Flood flood, Membership membership, Random rnd, boolean timed) {
        this.name = name;
        this.flood = flood;
        this.membership = membership;
        this.rnd = rnd;
        this.timed = timed;
        this.sequence = name;
    }

    /**
     * One tick: within the flood's ticks, {@link Scenario.Flood#perTick} requests, a new sequence every
     * {@link Scenario.Flood#perSequence} of them; the first request of a sequence sometimes comes as three variants
     * (RequestBodies.MAX_VARIANTS) valid at the primary only and one more valid at the backups only.
     */
    void onTick(long now, Simulation sim, SimClient sender) {
        if (!flood.on() || now < flood.from() || now >= flood.to()) {
            return;
        }
        int primary = sim.currentPrimary();
        Set<Integer> backups = new HashSet<>();
        for (int node = 0; node < membership.agreementCount(); node++) {
            if (node != primary) {
                backups.add(node);
            }
        }
        for (int k = 0; k < flood.perTick(); k++) {
            if (sent++ % flood.perSequence() == 0) {
                generation++;
                String seq = name + "~" + generation;
                sequence = timed ? seq + "@" + now * Scenario.MS_PER_TICK : seq;
                next = 1;
                if (rnd.nextInt(3) == 0) {
                    for (int v = 0; v < 3; v++) {
                        send(sim, sender, "primary only " + v, Set.of(primary));
                    }
                    send(sim, sender, "backups", backups);
                    next++;
                    continue;
                }
            }
            switch (rnd.nextInt(4)) {
                case 0 -> send(sim, sender, "nowhere", Set.of());
                case 1 -> send(sim, sender, "primary", Set.of(primary));
                case 2 -> send(sim, sender, "backups", backups);
                default -> {
                    Set<Integer> some = new HashSet<>();
                    while (some.size() < membership.f() + 1) {
                        some.add(rnd.nextInt(membership.agreementCount()));
                    }
                    send(sim, sender, "f+1", some);
                }
            }
            next++;
        }
    }

    /** Request {@link #next} of the current sequence, valid at {@code validAt}, sent to those nodes only. */
    private void send(Simulation sim, SimClient sender, String variant, Set<Integer> validAt) {
        Request r = new Request(new RequestId(sequence, next),
                (sequence + ":" + next + " " + variant).getBytes(StandardCharsets.UTF_8));
        sim.signatures().clientSigns(r);
        sim.authenticators().validAt(r, validAt);
        sim.count("flood requests sent");
        for (int node = 0; node < membership.agreementCount(); node++) {
            if (validAt.contains(node) || validAt.isEmpty()) { // where it is invalid, the adapter refuses it anyway
                sim.clientSends(sender, node, r);
            }
        }
    }
}
