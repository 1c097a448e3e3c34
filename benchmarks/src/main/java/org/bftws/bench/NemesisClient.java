package org.bftws.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.apache.axiom.om.OMElement;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.rm.RmSource;
import org.bftws.bench.nemesis.Operation;
import org.bftws.samples.kv.KvRequests;

/**
 * The clients of a nemesis run, in a JVM of their own that the nemesis starts in the client's network namespace:
 * {@code NemesisClient REPLICAS_XML DIR HISTORY CLIENTS KEYS SEED TIMEOUT_MS}. Its threads call the key-value sample
 * through the group without pause, gets, puts and compare-and-sets on a few keys, each on its own WS-RM sequence, and
 * write every operation's invocation and completion to the history ({@link Operation}, one JSON line each) as it
 * completes; times are {@link System#nanoTime()}, on Linux one clock for every JVM of the machine, so the nemesis's
 * fault times compare with them. A call that timed out has an unknown outcome: its thread goes on as a new process,
 * on a new sequence.
 * Standard input: the line {@code stop} (or its end) stops the threads after their calls in progress; then every key
 * is read once more (retried until read, for up to {@value #FINAL_READ_SECONDS} s), those reads are part of the
 * history too, and it prints {@code done N} (operations written) and exits.
 */
final class NemesisClient {

    private static final int FINAL_READ_SECONDS = 120;

    private final AppendClients node;
    private final BufferedWriter history;
    private final int keys;
    private final long seed;
    private final long timeoutMillis;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger processes = new AtomicInteger();
    private final AtomicLong values = new AtomicLong();
    private final AtomicLong written = new AtomicLong();

    private NemesisClient(AppendClients node, BufferedWriter history, int keys, long seed, long timeoutMillis) {
        this.node = node;
        this.history = history;
        this.keys = keys;
        this.seed = seed;
        this.timeoutMillis = timeoutMillis;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: NemesisClient REPLICAS_XML DIR HISTORY CLIENTS KEYS SEED TIMEOUT_MS");
            System.exit(2);
        }
        Logger.getLogger("org.apache.axis2").setLevel(Level.WARNING);
        int clients = Integer.parseInt(args[3]);
        int keys = Integer.parseInt(args[4]);
        long seed = Long.parseLong(args[5]);
        long timeout = Long.parseLong(args[6]);
        AppendClients node = AppendClients.open(Path.of(args[0]), TestbedDeployment.CLIENT, Path.of(args[1]),
                TestbedDeployment.KV_ENDPOINT, timeout);
        try (BufferedWriter history = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8)) {
            NemesisClient c = new NemesisClient(node, history, keys, seed, timeout);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < clients; t++) {
                int client = t;
                Thread thread = new Thread(() -> c.loop(client), "nemesis-client-" + t);
                threads.add(thread);
                thread.start();
            }
            System.out.println("ready client " + clients);
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.trim().equals("stop"); line = in.readLine()) {
                // only 'stop' means something
            }
            c.running.set(false);
            for (Thread t : threads) {
                t.join(timeout + 30_000);
            }
            c.finalReads();
            System.out.println("done " + c.written.get());
        } finally {
            node.close();
        }
        System.exit(0);
    }

    /** One client thread: a process until a call of it ends unknown, then a new one on a new sequence. */
    private void loop(int client) {
        Random r = new Random(seed * 1_000_003L + client);
        Map<String, Long> seen = new HashMap<>();
        while (running.get()) {
            int process = processes.getAndIncrement();
            ServiceClient sc;
            try {
                sc = serviceClient();
            } catch (AxisFault e) {
                System.err.println("client " + client + ": no ServiceClient: " + e);
                return;
            }
            try {
                while (running.get()) {
                    String key = "k" + r.nextInt(keys);
                    double kind = r.nextDouble();
                    Operation done = kind < 0.4 ? call(sc, process, "get", key, null, null)
                            : kind < 0.7 ? call(sc, process, "put", key, values.incrementAndGet(), null)
                            : call(sc, process, "cas", key, values.incrementAndGet(), seen.get(key));
                    if (done.outcome() == Operation.Outcome.OK && done.found()) {
                        seen.put(key, done.result());
                    } else if (done.outcome() == Operation.Outcome.OK) {
                        seen.remove(key);
                    }
                    if (done.outcome() == Operation.Outcome.UNKNOWN) {
                        break; // this process may still have a call under way: the thread goes on as a new one
                    }
                }
            } finally {
                try {
                    sc.cleanup();
                } catch (AxisFault e) {
                    // the node's own cleanup at the end takes care of the rest
                }
            }
        }
    }

    /** Reads every key until it is read (or the time is up), as one more process each. */
    private void finalReads() throws AxisFault {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FINAL_READ_SECONDS);
        for (int k = 0; k < keys; k++) {
            while (System.nanoTime() < deadline) {
                ServiceClient sc = serviceClient();
                Operation read = call(sc, processes.getAndIncrement(), "get", "k" + k, null, null);
                sc.cleanup();
                if (read.outcome() == Operation.Outcome.OK) {
                    break;
                }
            }
        }
    }

    private Operation call(ServiceClient sc, int process, String op, String key, Long value, Long expected) {
        OMElement request = switch (op) {
            case "get" -> KvRequests.get(key);
            case "put" -> KvRequests.put(key, value);
            default -> KvRequests.compareAndSet(key, expected, value);
        };
        long call = System.nanoTime();
        Operation result;
        try {
            sc.getOptions().setAction(KvRequests.action(request));
            OMElement reply = sc.sendReceive(request);
            reply.build();
            long ret = System.nanoTime();
            result = answered(process, op, key, value, expected, call, ret, reply);
        } catch (AxisFault e) {
            String m = String.valueOf(e.getMessage());
            // the module says so when it refused to send at all; any other failure may have reached the group
            Operation.Outcome outcome = m.contains("was not sent") ? Operation.Outcome.FAILED
                    : Operation.Outcome.UNKNOWN;
            result = new Operation(process, op, key, value, expected, call,
                    outcome == Operation.Outcome.FAILED ? System.nanoTime() : null, outcome, false, null, false);
        } catch (RuntimeException e) {
            result = new Operation(process, op, key, value, expected, call, null, Operation.Outcome.UNKNOWN, false,
                    null, false);
        }
        write(result);
        return result;
    }

    private static Operation answered(int process, String op, String key, Long value, Long expected, long call,
                                      long ret, OMElement reply) {
        String expectedName = (op.equals("cas") ? "compareAndSet" : op) + "Response";
        if (!expectedName.equals(reply.getLocalName())) {
            throw new IllegalStateException("the reply is " + reply.getQName() + ", not " + expectedName);
        }
        String resultText = switch (op) {
            case "get" -> KvRequests.text(reply, "value");
            case "put" -> KvRequests.text(reply, "previous");
            default -> KvRequests.text(reply, "current");
        };
        Long result = resultText == null ? null : Long.valueOf(resultText.trim());
        boolean swapped = op.equals("cas") && Boolean.parseBoolean(KvRequests.text(reply, "swapped"));
        return new Operation(process, op, key, value, expected, call, ret, Operation.Outcome.OK, result != null,
                result, swapped);
    }

    private void write(Operation o) {
        synchronized (history) {
            try {
                history.write(o.toJson());
                history.newLine();
                history.flush();
                written.incrementAndGet();
            } catch (IOException e) {
                System.err.println("the history could not be written: " + e);
                System.exit(1);
            }
        }
    }

    private ServiceClient serviceClient() throws AxisFault {
        ServiceClient client = new ServiceClient(node.context(), null);
        Options options = new Options();
        options.setTo(new EndpointReference(TestbedDeployment.KV_ENDPOINT));
        options.setTimeOutInMilliSeconds(timeoutMillis);
        options.setProperty(RmSource.SEQUENCE_KEY, "nemesis-" + UUID.randomUUID());
        client.setOptions(options);
        return client;
    }
}
