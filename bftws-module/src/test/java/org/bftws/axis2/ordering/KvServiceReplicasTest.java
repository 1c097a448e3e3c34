package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.bftws.samples.kv.KvRequests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key-value sample replicated on four nodes: concurrent clients whose requests conflict (transfers between the
 * same four accounts, compare-and-set increments of one counter) leave every replica in the same state, byte for
 * byte, with the money conserved and no increment lost; a transfer the balance does not cover comes back as the
 * service's own fault, decided like any reply; a replica that lost everything catches up by state transfer through
 * the service's set_state.
 */
class KvServiceReplicasTest {

    private static final String[] ACCOUNTS = {"acct0", "acct1", "acct2", "acct3"};
    private static final long OPENING = 100;
    private static final Pattern ACCOUNT = Pattern.compile("key=\"([^\"]+)\">(\\d+)<");

    @TempDir
    Path dir;

    /** What the clients did: increments that swapped, transfers refused for want of balance. */
    private record Load(int increments, int refused) {
    }

    @Test
    void concurrentConflictingTransfersAndCompareAndSetsLeaveEveryReplicaInTheSameStateWithNothingLost()
            throws Exception {
        try (KvGroup g = KvGroup.start(dir, "mac", BftTestGroup.protocol(4, "5s"))) {
            open(g.client());
            Load load = conflictingLoad(g, 4, 12);
            byte[] state = awaitSameState(g, 4, load.increments());
            Map<String, Long> accounts = accounts(state);
            assertEquals(ACCOUNTS.length * OPENING,
                    Arrays.stream(ACCOUNTS).mapToLong(accounts::get).sum(), "transfers conserve the money");
            assertEquals(load.increments(), accounts.get("counter"), "every compare-and-set that swapped counts once");
            assertTrue(new String(state, StandardCharsets.UTF_8).contains("total=\"" + (ACCOUNTS.length * OPENING
                    + load.increments()) + "\""), new String(state, StandardCharsets.UTF_8));

            ServiceClient client = g.client();
            AxisFault refused = assertThrows(AxisFault.class,
                    () -> KvGroup.call(client, KvRequests.transfer("acct0", "acct1", 1_000_000)));
            assertTrue(refused.getReason().startsWith("insufficient balance: account 'acct0' holds "),
                    "f+1 replicas' identical faults are the decided reply: " + refused.getReason());
            for (int i = 0; i < 4; i++) {
                assertTrue(g.node(i).replica().manager().stableCheckpoint() > 0,
                        "replica" + i + ": checkpoints of the kv state became stable, so 2f+1 digests agreed");
            }
            System.out.printf("kv group: %d increments, %d transfers refused for want of balance, state %d bytes%n",
                    load.increments(), load.refused(), state.length);
        }
    }

    @Test
    void aReplicaThatLostEverythingCatchesUpThroughTheServicesSetState() throws Exception {
        try (KvGroup g = KvGroup.start(dir, "mac", BftTestGroup.protocol(4, "5s"))) {
            ServiceClient client = g.client();
            open(client);
            g.stop(3);
            for (int i = 0; i < 16; i++) {
                KvGroup.call(client, KvRequests.transfer(ACCOUNTS[i % 4], ACCOUNTS[(i + 1) % 4], 1 + i));
            }
            g.restart(3);
            // the others' next checkpoints tell replica3 how far behind it is; it fetches the stable state
            for (int i = 0; i < 16; i++) {
                KvGroup.call(client, KvRequests.put("after-restart-" + i, i));
            }
            byte[] state = awaitSameState(g, 4, 0);
            assertEquals(16, accounts(state).keySet().stream().filter(k -> k.startsWith("after-restart-")).count());
            Map<String, Long> counters = g.node(3).replica().counters();
            assertTrue(counters.getOrDefault("state transfers", 0L) >= 1, counters.toString());
        }
    }

    /** Opens the four accounts with 100 each and the counter at 0. */
    private static void open(ServiceClient client) throws Exception {
        for (String a : ACCOUNTS) {
            KvGroup.call(client, KvRequests.put(a, OPENING));
        }
        KvGroup.call(client, KvRequests.compareAndSet("counter", null, 0));
    }

    /**
     * {@code clients} threads, each with its own engine and WS-RM sequence, {@code rounds} times: a transfer around
     * the ring of accounts (amounts up to 70 against balances near 100, so some are refused), then an increment of
     * the shared counter by get and compare-and-set, which fails whenever another client incremented in between.
     */
    private static Load conflictingLoad(KvGroup g, int clients, int rounds) throws Exception {
        AtomicInteger increments = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            ServiceClient client = g.client();
            int id = c;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < rounds; i++) {
                        String from = ACCOUNTS[(id + i) % ACCOUNTS.length];
                        String to = ACCOUNTS[(id + i + 1 + id % 2) % ACCOUNTS.length];
                        try {
                            KvGroup.call(client, KvRequests.transfer(from, to, 30 + 10 * ((id * 7 + i) % 5)));
                        } catch (AxisFault f) {
                            if (f.getReason() == null || !f.getReason().startsWith("insufficient balance")) {
                                throw f;
                            }
                            refused.incrementAndGet();
                        }
                        long seen = Long.parseLong(KvRequests.text(KvGroup.call(client, KvRequests.get("counter")),
                                "value"));
                        String swapped = KvRequests.text(KvGroup.call(client,
                                KvRequests.compareAndSet("counter", seen, seen + 1)), "swapped");
                        if ("true".equals(swapped)) {
                            increments.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "kv-client-" + c);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(180_000);
        }
        assertEquals(List.of(), List.copyOf(failures));
        return new Load(increments.get(), refused.get());
    }

    /**
     * Waits (at most 30 s: a replica may still be executing the last requests when f+1 others answered) until the
     * first {@code n} replicas' states are byte-equal and, when {@code counter} is positive, the counter reached it;
     * then asserts them equal and returns the state.
     */
    private static byte[] awaitSameState(KvGroup g, int n, long counter) throws Exception {
        byte[][] states = new byte[n][];
        for (int t = 0; t < 600; t++) {
            for (int i = 0; i < n; i++) {
                states[i] = g.state(i);
            }
            boolean same = true;
            for (int i = 1; i < n; i++) {
                same &= Arrays.equals(states[0], states[i]);
            }
            if (same && (counter <= 0 || accounts(states[0]).getOrDefault("counter", -1L) == counter)) {
                break;
            }
            Thread.sleep(50);
        }
        for (int i = 1; i < n; i++) {
            assertArrayEquals(states[0], states[i], "replica" + i + " has replica0's state: "
                    + new String(states[i], StandardCharsets.UTF_8) + " vs " + new String(states[0],
                    StandardCharsets.UTF_8));
        }
        return states[0];
    }

    /** The accounts of a serialised get_state response. */
    private static Map<String, Long> accounts(byte[] state) {
        Map<String, Long> out = new TreeMap<>();
        Matcher m = ACCOUNT.matcher(new String(state, StandardCharsets.UTF_8));
        while (m.find()) {
            out.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return out;
    }
}
