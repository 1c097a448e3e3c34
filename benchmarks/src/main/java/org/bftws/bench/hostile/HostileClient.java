package org.bftws.bench.hostile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

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
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.rm.RmBodies;
import org.bftws.axis2.rm.RmSource;
import org.bftws.rm.Backoff;
import org.bftws.rm.SequenceIds;
import org.bftws.rm.Wsrm;
import org.bftws.samples.echo.EchoService;
import org.bftws.server.NodeRepository;

/**
 * The hostile client's JVM ({@code ./bftws testbed --hostile MODE} starts it beside the honest echo client): a client
 * party of the run's replicas.xml with keys of its own, whose threads send what its {@link HostileMode} says as fast
 * as their pacing allows. Its replicas.xml is a copy of the group's with the client's pacing in {@code <protocol>}
 * (clientTimeout, retransmissionInterval, maxRetransmissions: the replicas never read that copy).
 *
 * <p>In the modes through the module (but {@code create-flood}) each thread first sends one valid request (its
 * sequence is then open; the request gets a patient schedule of its own, and another sequence when it fails);
 * standard input: {@code start} starts the threads, {@code stop} or the end of input ends the JVM at once
 * (requests in flight are abandoned with their connections, so the attack ends when the process does). Standard
 * output: {@code ready hostile} once set up, then every second and once more on {@code stop}
 * {@code hostile sent=S replied=R faults=F errors=E spoilt=K retransmissions=T} (totals since {@code start}: calls
 * started; calls answered with a reply, with a fault or HTTP status, or not answered at all; requests whose
 * authenticator was spoilt, each sent once to every replica; the module's retransmissions of a request to one replica
 * after a lost exchange or a "retry later"; the last two only for the modes that go through the module). With them
 * the testbed accounts for the replicas' refusals: every replica whose entry was spoilt refuses each spoilt request
 * once, and each retransmission to it once more.
 */
public final class HostileClient {

    /** How long a thread's call may take before the ServiceClient gives up (its pacing normally ends it first). */
    private static final long CALL_TIMEOUT_MILLIS = 30_000;
    /** How often a thread tries its valid first request before the attack, each on a sequence of its own. */
    private static final int OPEN_ATTEMPTS = 2;
    /** The first requests' schedule: 6 retransmissions from 200 ms, doubling (about 15 s in all with 300 ms tries). */
    private static final Backoff OPENING = Backoff.of(Duration.ofMillis(200), 6);

    private final Map<String, String> args;
    private final HostileMode mode;
    private final int threads;
    private final long intervalNanos;
    private final AtomicLong nextSlot = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong replied = new AtomicLong();
    private final AtomicLong faults = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final PrintStream out;
    private volatile ConfigurationContext context;
    private volatile HttpClient http;
    /** The modes that spoil authenticators: the handler, armed when the attack starts. */
    private volatile Corruption corruption;
    /** The module's retransmissions when the attack started (the valid first requests' are not the attack's). */
    private volatile long retransmissionsBefore;
    /** Set on {@code stop}: no thread starts another call, so the last totals count every request sent. */
    private volatile boolean stopping;
    /** Each thread's ServiceClient for echo requests, on a sequence opened before the attack. */
    private ServiceClient[] clients;

    private HostileClient(Map<String, String> args, PrintStream out) {
        this.args = args;
        this.mode = HostileMode.of(arg("mode")).orElseThrow(() -> new IllegalArgumentException(
                "--mode must be one of " + HostileMode.labels() + ", not " + arg("mode")));
        this.threads = Integer.parseInt(arg("threads"));
        double rate = Double.parseDouble(args.getOrDefault("rate", "0"));
        this.intervalNanos = rate <= 0 ? 0 : (long) (1e9 / rate);
        this.out = out;
    }

    /**
     * {@code --mode M --threads N [--rate R] --size K --timeout-ms T}, and for the modes through the module
     * {@code --conf FILE --party NAME --repository DIR --endpoint URL --primary NODE}, for garbage
     * {@code --targets URL,URL,..}.
     */
    public static void main(String[] argv) throws Exception {
        Map<String, String> args = new HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            if (!argv[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + argv[i]);
            }
            args.put(argv[i].substring(2), argv[i + 1]);
        }
        PrintStream out = System.out;
        HostileClient client = new HostileClient(args, out);
        client.setUp();
        out.println("ready hostile 0");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.trim().equals("stop"); line = in.readLine()) {
            if (line.trim().equals("start")) {
                client.startThreads();
            }
        }
        client.stopping = true;
        client.report();
        out.println("stopped hostile");
        out.flush();
        Runtime.getRuntime().halt(0); // no orderly shutdown: the attack ends with this process, its calls and all
    }

    private String arg(String name) {
        String v = args.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }

    private void setUp() throws IOException {
        long timeoutMillis = Long.parseLong(arg("timeout-ms"));
        if (mode == HostileMode.GARBAGE) {
            HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofMillis(Math.max(timeoutMillis, 1_000)));
            org.bftws.config.ReplicasConfig config = org.bftws.config.ReplicasConfigReader.read(Path.of(arg("conf")),
                    org.bftws.config.KeyFileCheck.forParty(arg("party")));
            if (config.tlsOn()) {
                // over <tls> it presents its own (valid) certificate, as any client must to be heard at all; the
                // replicas' certificates name parties, not hosts: the deployment CA and the party check stand in for
                // the hostname check, which this JDK client can only switch off
                System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
                org.bftws.tls.DeploymentTls tls = new org.bftws.axis2.security.SecurityRuntime(config, arg("party"))
                        .tls().orElseThrow();
                b.sslContext(tls.context()).sslParameters(tls.parameters(false));
            }
            http = b.build();
            return;
        }
        System.setProperty("bftws.replicasConfig", arg("conf"));
        System.setProperty("bftws.party", arg("party"));
        Path repository = NodeRepository.forClient(Path.of(arg("repository")));
        context = ConfigurationContextFactory.createConfigurationContextFromFileSystem(repository.toString(),
                NodeRepository.axis2Xml(repository).toString());
        BftwsNode.of(context).admitCallsAtOnce(Math.max(32, threads));
        if (mode.spoilsAuthenticators()) {
            corruption = Corruption.install(context.getAxisConfiguration(), mode, arg("primary"));
            corruption.arm(false);
        }
        if (mode.spoilsAuthenticators() || mode == HostileMode.VALID) {
            openSequences();
        }
    }

    /**
     * One valid echo per thread, at once, before the attack: each thread's CreateSequence and first request, so the
     * attack starts with every thread sending spoilt requests on a sequence the replicas know. The client's pacing is
     * the attack's (one attempt of 300 ms, one retransmission, by default), which a loaded machine's TLS handshakes
     * and replies outlast, so these calls get a patient schedule of their own ({@link #OPENING}: a retransmission
     * that comes after the request executed is answered from the replicas' cache at once); the attack's calls get
     * the client's. A thread whose first request still fails tries once more on a new sequence (its message 1 may
     * never have reached the replicas, and a sequence is delivered in order). Says how many threads opened their
     * sequence: the others' calls may fail before they are spoilt.
     */
    private void openSequences() {
        clients = new ServiceClient[threads];
        List<Thread> openers = new ArrayList<>();
        int size = Integer.parseInt(arg("size"));
        AtomicLong opened = new AtomicLong();
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                for (int attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
                    try {
                        ServiceClient c = serviceClient(EchoService.NS + "/echo", "hostile-" + index
                                + (attempt == 1 ? "" : "-" + attempt));
                        clients[index] = c;
                        c.getOptions().setProperty(Backoff.PROPERTY, OPENING);
                        try {
                            c.sendReceive(echo("hostile" + index + ".open", size)).build();
                        } finally {
                            c.getOptions().setProperty(Backoff.PROPERTY, null); // the attack's calls: the client's
                        }
                        opened.incrementAndGet();
                        return;
                    } catch (AxisFault | RuntimeException e) {
                        out.println("hostile thread " + index + ": its valid first request failed (attempt " + attempt
                                + " of " + OPEN_ATTEMPTS + "): " + e.getMessage());
                    }
                }
            }, "hostile-open-" + i);
            openers.add(t);
            t.start();
        }
        for (Thread t : openers) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        out.println("hostile: " + opened.get() + " of " + threads + " threads opened their sequence");
    }

    private void startThreads() {
        if (context != null) {
            retransmissionsBefore = BftwsNode.of(context).counters().retransmissions.get();
        }
        if (corruption != null) {
            corruption.arm(true);
        }
        nextSlot.set(System.nanoTime());
        for (int i = 0; i < threads; i++) {
            int index = i;
            Thread t = new Thread(() -> loop(index), "hostile-" + i);
            t.setDaemon(true);
            t.start();
        }
        Thread reporter = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException e) {
                    return;
                }
                report();
            }
        }, "hostile-report");
        reporter.setDaemon(true);
        reporter.start();
    }

    private synchronized void report() {
        String module = context == null ? "" : " spoilt=" + (corruption == null ? 0 : corruption.spoilt())
                + " retransmissions="
                + (BftwsNode.of(context).counters().retransmissions.get() - retransmissionsBefore);
        out.println("hostile sent=" + sent.get() + " replied=" + replied.get() + " faults=" + faults.get()
                + " errors=" + errors.get() + module);
        out.flush();
    }

    private void loop(int index) {
        try {
            switch (mode) {
                case GARBAGE -> garbage(index);
                case CREATE_FLOOD -> createFlood();
                default -> requests(index);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (AxisFault | RuntimeException e) {
            out.println("hostile thread " + index + " could not start: " + e);
        }
    }

    /** Waits for this call's slot when the client is paced ({@code --rate}): slots 1/rate apart over all threads. */
    private void pace() throws InterruptedException {
        if (intervalNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        long slot = Math.max(now, nextSlot.getAndAccumulate(now, (prev, n) -> Math.max(prev, n) + intervalNanos));
        long wait = slot - now;
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    private ServiceClient serviceClient(String action, String sequenceKey) throws AxisFault {
        ServiceClient client = new ServiceClient(context, null);
        Options o = new Options();
        o.setTo(new EndpointReference(arg("endpoint")));
        o.setAction(action);
        o.setTimeOutInMilliSeconds(CALL_TIMEOUT_MILLIS);
        if (sequenceKey != null) {
            o.setProperty(RmSource.SEQUENCE_KEY, sequenceKey);
        }
        client.setOptions(o);
        return client;
    }

    /** Echo requests on the thread's own sequence, their authenticators spoilt by {@link Corruption}. */
    private void requests(int index) throws AxisFault, InterruptedException {
        ServiceClient client = clients[index] != null ? clients[index]
                : serviceClient(EchoService.NS + "/echo", "hostile-" + index);
        int size = Integer.parseInt(arg("size"));
        long[] k = {0};
        callForever(client, () -> echo("hostile" + index + "." + k[0]++, size));
    }

    /** CreateSequence after CreateSequence, each with a new client UUID: a new sequence each, never used. */
    private void createFlood() throws AxisFault, InterruptedException {
        ServiceClient client = serviceClient(Wsrm.CREATE_SEQUENCE, null);
        callForever(client, () -> RmBodies.createSequence(SequenceIds.newClientUuid()));
    }

    /** Sends {@code next}'s messages one after another at the client's pace, counting how each call ended. */
    private void callForever(ServiceClient client, java.util.function.Supplier<OMElement> next)
            throws InterruptedException {
        while (!stopping) {
            pace();
            if (stopping) {
                return;
            }
            sent.incrementAndGet();
            try {
                OMElement reply = client.sendReceive(next.get());
                if (reply != null) {
                    reply.build();
                }
                replied.incrementAndGet();
            } catch (AxisFault e) {
                faults.incrementAndGet();
            } catch (RuntimeException e) {
                errors.incrementAndGet();
            }
        }
    }

    /** POSTs of bodies that are no SOAP request, to each replica's service in turn. */
    private void garbage(int index) throws InterruptedException {
        List<URI> targets = new ArrayList<>();
        for (String t : arg("targets").split(",")) {
            targets.add(URI.create(t));
        }
        Duration timeout = Duration.ofMillis(Long.parseLong(arg("timeout-ms")));
        Random random = new Random(index);
        for (long k = 0; ; k++) {
            pace();
            sent.incrementAndGet();
            URI target = targets.get((int) ((index + k) % targets.size()));
            HttpRequest request = HttpRequest.newBuilder(target).timeout(timeout)
                    .header("Content-Type", "text/xml; charset=UTF-8")
                    .header("SOAPAction", "\"" + EchoService.NS + "/echo\"")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(garbageBody(k, random))).build();
            try {
                HttpResponse<Void> r = http.send(request, HttpResponse.BodyHandlers.discarding());
                (r.statusCode() < 400 ? replied : faults).incrementAndGet();
            } catch (IOException e) {
                errors.incrementAndGet();
            }
        }
    }

    /** The k-th garbage body: random bytes, plain text, a truncated SOAP envelope, or XML that is no SOAP. */
    static byte[] garbageBody(long k, Random random) {
        return switch ((int) (k % 4)) {
            case 0 -> {
                byte[] b = new byte[256 + random.nextInt(3840)];
                random.nextBytes(b);
                yield b;
            }
            case 1 -> "this is not XML, and not SOAP either\n".repeat(1 + random.nextInt(20))
                    .getBytes(StandardCharsets.UTF_8);
            case 2 -> ("<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\"><soapenv:Header>"
                    + "<wsa:To xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">http://echo.bftws.group/axis2/"
                    + "services/EchoService</wsa:To></soapenv:Header><soapenv:Body><e:echo xmlns:e=\""
                    + EchoService.NS + "\"><e:item>cut he").getBytes(StandardCharsets.UTF_8);
            default -> ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><not-soap><item>" + k
                    + "</item></not-soap>").getBytes(StandardCharsets.UTF_8);
        };
    }

    private static OMElement echo(String tag, int size) {
        OMFactory f = OMAbstractFactory.getOMFactory();
        OMNamespace e = f.createOMNamespace(EchoService.NS, "e");
        OMElement echo = f.createOMElement("echo", e);
        for (int k = 0; k < size; k++) {
            f.createOMElement("item", e, echo).setText(tag + "-" + k);
        }
        return echo;
    }
}
