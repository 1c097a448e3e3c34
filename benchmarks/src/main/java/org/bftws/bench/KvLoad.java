package org.bftws.bench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.core.ReplyPolicy;
import org.bftws.samples.kv.KvRequests;
import org.bftws.samples.kv.KvService;

/**
 * The testbed's load for the key-value sample ({@code --service kv}): every client thread works on the same
 * {@value #ACCOUNTS} accounts and the same counter, so requests conflict all the time. Calls alternate between a
 * transfer around the accounts (amounts up to 400 against balances near 1,000: some are refused with the service's
 * "insufficient balance" fault, a right answer) and an increment of the counter by compare-and-set from the value
 * the thread saw last (which misses whenever another thread incremented in between; the reply says the current
 * value, which the next try uses). Every decided transfer is booked here too, so that when no call failed the end
 * state is known exactly: each account holds its opening balance plus what the transfers the replicas said they made
 * moved, and the counter the number of increments that swapped; an execution lost or repeated shows as a
 * difference. At the end {@link #check} reads the agreed state through the group.
 */
final class KvLoad implements EchoClient.Workload {

    static final int ACCOUNTS = 8;
    static final long OPENING = 1_000;
    static final String COUNTER = "counter";

    private final long[] calls;
    private final long[] lastSeen;
    private final AtomicLong increments = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    /** Per account, what the decided transfers moved in and out of it. */
    private final AtomicLongArray moved = new AtomicLongArray(ACCOUNTS);

    KvLoad(int clients) {
        this.calls = new long[clients];
        this.lastSeen = new long[clients];
    }

    static String account(int i) {
        return "acct" + i;
    }

    private static int accountIndex(String account) {
        return Integer.parseInt(account.substring("acct".length()));
    }

    /** Increments that swapped so far (each moved the counter by one). */
    long increments() {
        return increments.get();
    }

    /**
     * Null when {@code state} (key to value) is exactly the state the decided calls imply, else what differs; only
     * meaningful when no call failed (a failed call's outcome is unknown).
     */
    String difference(Map<String, Long> state) {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < ACCOUNTS; i++) {
            long expected = OPENING + moved.get(i);
            Long actual = state.get(account(i));
            if (actual == null || actual != expected) {
                wrong.add(account(i) + " holds " + actual + ", the decided transfers make it " + expected);
            }
        }
        Long counter = state.get(COUNTER);
        if (counter == null || counter != increments.get()) {
            wrong.add(COUNTER + " is " + counter + ", " + increments.get() + " increments swapped");
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    /** Opens the accounts with {@value #OPENING} each and the counter at 0 (before the client threads start). */
    static void open(ServiceClient client) throws AxisFault {
        for (int i = 0; i < ACCOUNTS; i++) {
            call(client, KvRequests.put(account(i), OPENING));
        }
        call(client, KvRequests.compareAndSet(COUNTER, null, 0));
    }

    @Override
    public OMElement request(int client, String tag) {
        long k = calls[client]++;
        if (k % 2 == 0) {
            int from = (int) ((client + k / 2) % ACCOUNTS);
            int to = (int) ((from + 1 + (client + k) % (ACCOUNTS - 1)) % ACCOUNTS);
            return KvRequests.transfer(account(from), account(to), 1 + (client * 31L + k * 17L) % 400);
        }
        return KvRequests.compareAndSet(COUNTER, lastSeen[client], lastSeen[client] + 1);
    }

    @Override
    public String problem(int client, String tag, OMElement request, OMElement reply) {
        if (reply == null || !KvService.NS.equals(reply.getNamespaceURI())
                || !(request.getLocalName() + "Response").equals(reply.getLocalName())) {
            return "reply is " + (reply == null ? "empty" : reply.getQName()) + ", not {" + KvService.NS + "}"
                    + request.getLocalName() + "Response";
        }
        if (request.getLocalName().equals("transfer")) {
            if (KvRequests.text(reply, "fromBalance") == null || KvRequests.text(reply, "toBalance") == null) {
                return "transferResponse without both balances";
            }
            long amount = Long.parseLong(KvRequests.text(request, "amount"));
            moved.addAndGet(accountIndex(KvRequests.text(request, "from")), -amount);
            moved.addAndGet(accountIndex(KvRequests.text(request, "to")), amount);
            return null;
        }
        String current = KvRequests.text(reply, "current");
        if (current == null) {
            return "compareAndSetResponse without the current value";
        }
        lastSeen[client] = Long.parseLong(current);
        (Boolean.parseBoolean(KvRequests.text(reply, "swapped")) ? increments : misses).incrementAndGet();
        return null;
    }

    @Override
    public String problem(int client, String tag, OMElement request, AxisFault fault) {
        if (fault.getReason() != null && fault.getReason().startsWith("insufficient balance")) {
            refused.incrementAndGet();
            return null; // every replica refused it alike: the service's answer
        }
        return EchoClient.Workload.super.problem(client, tag, request, fault);
    }

    /**
     * Reads the state through the group with {@code policy} (ALL: every executor must return the same bytes) and
     * checks it: the balances add up to what was opened, and, when {@code exact} (no request failed, so every
     * increment's outcome is known), the counter is the number of increments that swapped. Returns one line; its
     * first word is {@code ok} or {@code FAILED}.
     */
    String check(ServiceClient client, ReplyPolicy policy, boolean exact) {
        OMElement state;
        try {
            client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, policy);
            state = call(client, KvRequests.getState()).getFirstChildWithName(new QName(KvService.NS, "state"));
        } catch (AxisFault e) {
            return "FAILED: the replicas' states could not be read with policy " + policy + ": " + e.getMessage();
        }
        long total = 0;
        long counter = -1;
        Map<String, Long> values = new TreeMap<>();
        for (Iterator<OMElement> it = state.getChildElements(); it.hasNext(); ) {
            OMElement a = it.next();
            String key = a.getAttributeValue(new QName("key"));
            long v = Long.parseLong(a.getText());
            values.put(key, v);
            if (key.equals(COUNTER)) {
                counter = v;
            } else {
                total += v;
            }
        }
        String agreed = policy == ReplyPolicy.ALL ? "identical on every replica" : "identical on " + policy;
        String figures = String.format(Locale.ROOT, "%d increments, %d compare-and-set misses, %d transfers refused"
                + " for want of balance; balances total %d of %d opened, counter %d", increments.get(), misses.get(),
                refused.get(), total, ACCOUNTS * OPENING, counter);
        String difference = exact ? difference(values) : null;
        boolean ok = total == ACCOUNTS * OPENING && difference == null;
        return (ok ? "ok: state " : "FAILED: state ") + agreed + "; " + figures
                + (exact && ok ? "; every account as the decided transfers imply" : "")
                + (difference == null ? "" : "; " + difference);
    }

    private static OMElement call(ServiceClient client, OMElement request) throws AxisFault {
        client.getOptions().setAction(KvRequests.action(request));
        OMElement reply = client.sendReceive(request);
        reply.build();
        return reply;
    }
}
