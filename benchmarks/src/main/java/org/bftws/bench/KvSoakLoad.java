package org.bftws.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmSource;
import org.bftws.samples.kv.KvRequests;

/**
 * The key-value sample's soak load ({@code ./bftws soak --service kv}): {@link KvLoad}'s conflicting transfers and
 * compare-and-set increments from client threads without pause, each on its own WS-RM sequence. The service's state
 * is eight accounts and a counter however long the run, so what the replicas' heap does over an hour is the module's
 * own doing. The judgement is exact: with no failed call, every replica must hold the balances the decided transfers
 * imply and the counter must equal the increments that swapped ({@link KvLoad#difference}).
 */
final class KvSoakLoad implements SoakLoad {

    private final AppendClients node;
    private final long timeoutMillis;
    private final KvLoad load;
    private final AtomicInteger ok = new AtomicInteger();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final List<String> sequences = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean();

    /**
     * A load on the client node of {@code node} (its configuration context: one client node per JVM) for at most
     * {@code maxClients} threads; opens the accounts and the counter through the group first.
     */
    KvSoakLoad(AppendClients node, int maxClients, long timeoutMillis) throws AxisFault {
        this.node = node;
        this.timeoutMillis = timeoutMillis;
        this.load = new KvLoad(maxClients);
        ServiceClient setup = serviceClient("kv-soak-setup-" + UUID.randomUUID().toString().substring(0, 8));
        try {
            KvLoad.open(setup);
        } finally {
            setup.cleanup();
        }
    }

    @Override
    public synchronized void start(int clients) {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("already running");
        }
        for (int t = 0; t < clients; t++) {
            int client = t;
            Thread thread = new Thread(() -> loop(client), "kv-soak-" + t);
            threads.add(thread);
            thread.start();
        }
    }

    @Override
    public synchronized void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(timeoutMillis + 30_000);
        }
        threads.clear();
    }

    @Override
    public int ok() {
        return ok.get();
    }

    @Override
    public List<String> failures() {
        return List.copyOf(failures);
    }

    @Override
    public int settleAtLeast() {
        return Math.toIntExact(load.increments());
    }

    @Override
    public Judgement judge(Map<String, EchoStateProbe.Reading> states, PrintStream out) {
        String worst = null;
        for (Map.Entry<String, EchoStateProbe.Reading> e : states.entrySet()) {
            Map<String, Long> values = new TreeMap<>();
            for (String entry : e.getValue().entries()) {
                int eq = entry.indexOf('=');
                values.put(entry.substring(0, eq), Long.parseLong(entry.substring(eq + 1)));
            }
            String difference = load.difference(values);
            out.println("soak: " + e.getKey() + " holds counter " + e.getValue().count() + ", digest "
                    + e.getValue().digest() + ": " + (difference == null
                    ? "every account as the decided transfers imply, counter = increments that swapped"
                    : difference));
            if (difference != null && worst == null) {
                worst = difference;
            }
        }
        return worst == null ? new Judgement("exactly once", true)
                : new Judgement("not exactly once (" + worst + ")", false);
    }

    private void loop(int client) {
        String key = "kv-soak-t" + client + "-" + UUID.randomUUID().toString().substring(0, 8);
        ServiceClient sc;
        try {
            sc = serviceClient(key);
        } catch (AxisFault e) {
            failures.add("t" + client + ": no ServiceClient: " + e);
            return;
        }
        sequences.add(key);
        try {
            for (int n = 1; running.get(); n++) {
                call(sc, client, "t" + client + "-" + n);
            }
        } finally {
            try {
                sc.cleanup();
            } catch (AxisFault e) {
                // the context's own cleanup at close() takes care of the rest
            }
        }
    }

    private void call(ServiceClient sc, int client, String tag) {
        OMElement request = load.request(client, tag);
        long start = System.nanoTime();
        String problem;
        try {
            sc.getOptions().setAction(KvRequests.action(request));
            OMElement reply = sc.sendReceive(request);
            reply.build();
            problem = load.problem(client, tag, request, reply);
        } catch (AxisFault e) {
            problem = load.problem(client, tag, request, e);
        } catch (RuntimeException e) {
            problem = e.toString();
        }
        if (problem == null) {
            ok.incrementAndGet();
        } else {
            failures.add(tag + " (" + request.getLocalName() + ") after " + String.format(Locale.ROOT, "%.1f",
                    (System.nanoTime() - start) / 1e9) + " s: " + (problem.length() > 300
                    ? problem.substring(0, 300) : problem));
        }
    }

    private ServiceClient serviceClient(String sequenceKey) throws AxisFault {
        ServiceClient client = new ServiceClient(node.context(), null);
        Options options = new Options();
        options.setTo(new EndpointReference(TestbedDeployment.KV_ENDPOINT));
        options.setTimeOutInMilliSeconds(timeoutMillis);
        options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
        client.setOptions(options);
        return client;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        for (String key : sequences) {
            try {
                BftwsNode.of(node.context()).source().terminate(TestbedDeployment.KV_ENDPOINT, key);
            } catch (AxisFault | RuntimeException e) {
                // a sequence the group no longer answers for ends with the client node anyway
            }
        }
        node.close();
    }
}
