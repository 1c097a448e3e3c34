package org.bftws.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.context.OperationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.axis2.rm.RmSource;
import org.bftws.samples.echo.EchoService;
import org.bftws.server.NodeRepository;

/**
 * Client threads that call the echo sample's order-dependent {@code append} on a replicated group without pause,
 * each on its own WS-RM sequence, through Axis2's ServiceClient with the bftws module engaged (multicast, signing,
 * f+1 matching replies): the load of the fault tests and of the failover measurement. Every call is recorded: the
 * value appended, whether a decided reply came back, the count and digest it reported, the view its replies
 * vouched for, and when it ended. Values are {@code PREFIX-tT-N}: unique within a run when prefixes are.
 */
final class AppendClients implements AutoCloseable {

    /**
     * One finished call: {@code count} is the log length the reply reported (0 when the call failed); it started at
     * {@code startNanos} and ended at {@code endNanos} ({@link System#nanoTime()}).
     */
    record Call(String value, boolean ok, int count, String digest, int view, long startNanos, long endNanos,
                String problem) {
    }

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");
    private static final String ACTION = EchoService.NS + "/append";

    private final ConfigurationContext context;
    private final String address;
    private final long timeoutMillis;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<String> sequences = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean();

    private AppendClients(ConfigurationContext context, String address, long timeoutMillis) {
        this.context = context;
        this.address = address;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * A client node of party {@code client} in deployment {@code replicasXml} (its own Axis2 repository in
     * {@code dir}) calling {@code address}; a call that gets no decided reply within {@code timeoutMillis} fails.
     */
    static AppendClients open(Path replicasXml, String client, Path dir, String address, long timeoutMillis)
            throws IOException {
        // How the bftws module of this JVM's client node learns the deployment and its own name, as for replicas.
        System.setProperty("bftws.replicasConfig", replicasXml.toAbsolutePath().toString());
        System.setProperty("bftws.party", client);
        Path repository = NodeRepository.forClient(dir);
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), NodeRepository.axis2Xml(repository).toString());
        return new AppendClients(ctx, address, timeoutMillis);
    }

    /** Starts {@code threads} threads appending {@code prefix}-tT-N values until {@link #stop()}. */
    synchronized void start(String prefix, int count) {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("already running");
        }
        threads.clear();
        for (int t = 0; t < count; t++) {
            String tag = prefix + "-t" + t;
            Thread thread = new Thread(() -> loop(tag), "append-" + tag);
            threads.add(thread);
            thread.start();
        }
    }

    /** Lets every thread finish its call in progress, then returns; their sequences stay open for later runs. */
    synchronized void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) {
            t.join(TimeUnit.MILLISECONDS.toMillis(timeoutMillis) + 30_000);
        }
        threads.clear();
    }

    /** Waits until {@code n} calls in all have finished (ok or not); false if that takes longer than the timeout. */
    boolean awaitCalls(int n, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (calls.size() < n) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** The client node's configuration context (for other clients in this JVM: one client node per JVM). */
    ConfigurationContext context() {
        return context;
    }

    /** The group endpoint the clients call. */
    String address() {
        return address;
    }

    /** The client's Voter's counters: {@code dissenting} counts authentic replies it outvoted. */
    org.bftws.voting.VotingCounters voting() {
        return BftwsNode.of(context).voting().counters();
    }

    /** Every finished call so far, in the order they finished. */
    List<Call> calls() {
        return List.copyOf(calls);
    }

    List<Call> accepted() {
        return calls.stream().filter(Call::ok).toList();
    }

    List<Call> failed() {
        return calls.stream().filter(c -> !c.ok()).toList();
    }

    private void loop(String tag) {
        String sequenceKey = tag + "-" + UUID.randomUUID().toString().substring(0, 8);
        ServiceClient client;
        try {
            client = serviceClient(sequenceKey);
        } catch (AxisFault e) {
            long now = System.nanoTime();
            calls.add(new Call(tag + "-0", false, 0, null, -1, now, now, "no ServiceClient: " + e));
            return;
        }
        sequences.add(sequenceKey);
        try {
            for (int n = 1; running.get(); n++) {
                calls.add(call(client, tag + "-" + n));
            }
        } finally {
            try {
                client.cleanup();
            } catch (AxisFault e) {
                // the context's own cleanup at close() takes care of the rest
            }
        }
    }

    private ServiceClient serviceClient(String sequenceKey) throws AxisFault {
        ServiceClient client = new ServiceClient(context, null);
        Options options = new Options();
        options.setTo(new EndpointReference(address));
        options.setAction(ACTION);
        options.setTimeOutInMilliSeconds(timeoutMillis);
        options.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
        client.setOptions(options);
        return client;
    }

    private static Call call(ServiceClient client, String value) {
        OMElement request = F.createOMElement("append", E);
        F.createOMElement("value", E, request).setText(value);
        long start = System.nanoTime();
        try {
            OMElement reply = client.sendReceive(request);
            reply.build();
            long end = System.nanoTime();
            OMElement count = reply.getFirstChildWithName(new QName(EchoService.NS, "count"));
            OMElement digest = reply.getFirstChildWithName(new QName(EchoService.NS, "digest"));
            if (!"appendResponse".equals(reply.getLocalName()) || count == null || digest == null) {
                return new Call(value, false, 0, null, -1, start, end, "unexpected reply " + reply);
            }
            return new Call(value, true, Integer.parseInt(count.getText().trim()), digest.getText().trim(),
                    acceptedView(client), start, end, null);
        } catch (AxisFault | RuntimeException e) {
            String m = e.getMessage() == null ? e.toString() : e.getMessage();
            return new Call(value, false, 0, null, -1, start, System.nanoTime(),
                    m.length() > 300 ? m.substring(0, 300) : m);
        }
    }

    /** The view the agreeing replies of the last call vouched for (the replicas' {@code bftws:View} header). */
    private static int acceptedView(ServiceClient client) {
        OperationContext op = client.getLastOperationContext();
        Object view = op == null ? null : op.getProperty(ReplyVoting.ACCEPTED_VIEW);
        return view instanceof Integer v ? v : -1;
    }

    /** Stops the threads, terminates their sequences and the client node. */
    @Override
    public void close() throws InterruptedException {
        stop();
        for (String key : sequences) {
            try {
                BftwsNode.of(context).source().terminate(address, key);
            } catch (AxisFault | RuntimeException e) {
                // a sequence the group no longer answers for ends with the client node anyway
            }
        }
        try {
            context.terminate();
        } catch (AxisFault e) {
            // nothing is left to release that the JVM does not release
        }
    }
}
