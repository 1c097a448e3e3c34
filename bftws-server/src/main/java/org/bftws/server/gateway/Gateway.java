package org.bftws.server.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.bftws.axis2.security.SecurityRuntime;
import org.bftws.tls.DeploymentTls;

/**
 * A voting gateway: plain SOAP 1.1 and 1.2 callers on one side, the groups of a replicas.xml on the other. It is a
 * bftws client (party {@code party}: its keys authenticate every request it forwards) that serves each group's
 * service at {@code http://LISTEN/axis2/services/S}, the path a replica serves it at.
 *
 * <p>Why the JDK's HTTP server and not Axis2's: the gateway's Axis2 engine is a bftws client, whose module is
 * engaged globally and would demand WS-RM of every request an Axis2 server in the same engine received; Axis2 would
 * also need each forwarded operation declared to dispatch it, and would serve a WSDL of its own making. The JDK
 * server hands over the caller's bytes untouched, needs no dependency, and its fixed pool of worker threads is
 * exactly the pool of WS-RM sequences ({@link GroupCaller}).
 */
public final class Gateway implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService workers;
    private final GroupCaller caller;
    private final Path repository;
    private final List<GroupConfig> groups;
    /** The --caller-ca check, or null when the gateway names no caller CA. */
    private final CallerCertificates callers;
    private boolean closed;

    private Gateway(HttpServer server, ExecutorService workers, GroupCaller caller, Path repository,
                    List<GroupConfig> groups, CallerCertificates callers) {
        this.server = server;
        this.workers = workers;
        this.caller = caller;
        this.repository = repository;
        this.groups = groups;
        this.callers = callers;
    }

    /**
     * Starts a gateway. Problems with replicas.xml, the party's keys or a --wsdl file are IllegalArgumentExceptions
     * (or the reader's ConfigException) that say what to fix; a port that cannot be bound an IOException naming it.
     *
     * @param listen  the address to listen on (a wildcard host: every interface)
     * @param conf    replicas.xml
     * @param party   the client of replicas.xml the gateway acts as
     * @param threads worker threads, each with its own WS-RM sequence: callers served at once
     * @param wsdl    WSDL files by service name, for groups whose WSDL is not to be fetched from their nodes
     * @param repository the Axis2 client repository the gateway's engine runs from (its axis2.xml engages
     *                addressing and bftws; the server's NodeRepository.forClient writes one)
     */
    public static Gateway start(InetSocketAddress listen, Path conf, String party, int threads, Map<String, Path> wsdl,
                                Path repository) throws IOException {
        return start(listen, conf, party, threads, wsdl, repository, null);
    }

    /**
     * As {@link #start(InetSocketAddress, Path, String, int, Map, Path)}. With replicas.xml's {@code <tls>} the
     * gateway reaches the groups over HTTPS as its party and serves its callers over HTTPS too, presenting its party
     * certificate (callers trust the deployment CA); with {@code callerCa} a caller must present a certificate one of
     * the CAs in that file (PEM or DER) issued, else its connection is refused.
     */
    public static Gateway start(InetSocketAddress listen, Path conf, String party, int threads, Map<String, Path> wsdl,
                                Path repository, Path callerCa) throws IOException {
        if (!Files.isRegularFile(conf)) {
            throw new IllegalArgumentException(conf.toAbsolutePath() + " does not exist; give the deployment's"
                    + " replicas.xml with --conf FILE");
        }
        ReplicasConfig config = ReplicasConfigReader.read(conf, KeyFileCheck.none());
        if (config.clients().stream().noneMatch(c -> c.name().equals(party))) {
            throw new IllegalArgumentException(conf + " has no <client name=\"" + party + "\">; its clients: "
                    + String.join(", ", config.clients().stream().map(c -> c.name()).toList()));
        }
        if (config.groups().stream().anyMatch(g -> g.security().needsKeys())) {
            ReplicasConfigReader.read(conf, KeyFileCheck.forParty(party)); // says to run keygen if keys are missing
        }
        for (String service : wsdl.keySet()) {
            if (config.groupByService(service).isEmpty()) {
                throw new IllegalArgumentException("--wsdl " + service + "=...: " + conf + " has no group for service '"
                        + service + "'");
            }
        }
        if (callerCa != null && !config.tlsOn()) {
            throw new IllegalArgumentException("--caller-ca needs replicas.xml's <tls>: without it the gateway serves "
                    + "plain HTTP, where callers present no certificate");
        }
        CallerCertificates callers = callerCa == null ? null : CallerCertificates.read(callerCa);
        Map<String, GroupConfig> groups = new LinkedHashMap<>();
        for (GroupConfig g : config.groups()) {
            groups.put(g.service(), g);
        }
        ConfigurationContext context = BftwsConfigurator.context(repository, repository.resolve("axis2.xml"),
                conf, party);
        GroupCaller caller = new GroupCaller(context);
        Map<String, GroupWsdl> wsdls = new LinkedHashMap<>();
        DeploymentTls tls;
        try {
            tls = config.tlsOn() ? SecurityRuntime.of(context).tls().orElseThrow(() -> new IllegalStateException(
                    "replicas.xml has <tls>, but " + party + " has no keys to present (run ./bftws keygen)")) : null;
            for (GroupConfig g : config.groups()) {
                wsdls.put(g.service(), new GroupWsdl(g, wsdl.get(g.service()), tls));
            }
        } catch (IOException | RuntimeException e) {
            caller.close();
            delete(repository);
            throw e;
        }
        HttpServer server;
        try {
            server = tls == null ? HttpServer.create(listen, 128) : https(listen, tls, callers);
        } catch (IOException e) {
            caller.close();
            delete(repository);
            throw new IOException("cannot listen on " + listen.getHostString() + ":" + listen.getPort() + ": "
                    + e.getMessage(), e);
        }
        InetSocketAddress bound = server.getAddress();
        String authority = listen.getAddress() != null && listen.getAddress().isAnyLocalAddress() ? null
                : authority(listen.getHostString(), bound.getPort());
        server.createContext("/", new ServiceExchange(groups, wsdls, caller, authority));
        ExecutorService workers = Executors.newFixedThreadPool(threads, named("bftws-gateway-worker-"));
        server.setExecutor(workers);
        server.start();
        return new Gateway(server, workers, caller, repository, List.copyOf(groups.values()), callers);
    }

    /**
     * The callers' HTTPS server: the gateway's party certificate and the deployment's TLS versions and suites; a
     * caller certificate required, from a CA of {@code callers}, when the operator named one.
     */
    private static HttpServer https(InetSocketAddress listen, DeploymentTls tls, CallerCertificates callers)
            throws IOException {
        HttpsServer server = HttpsServer.create(listen, 128);
        SSLContext context = callers == null ? tls.context() : tls.contextTrusting(callers);
        server.setHttpsConfigurator(new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters parameters) {
                SSLParameters p = tls.parameters(callers != null);
                if (callers == null) {
                    p.setWantClientAuth(false);
                }
                parameters.setSSLParameters(p);
            }
        });
        return server;
    }

    /**
     * Callers whose certificate the {@code --caller-ca} check refused so far (each also logged in one line); 0 when
     * the gateway names no caller CA.
     */
    public long refusedCallers() {
        return callers == null ? 0 : callers.refusals();
    }

    /** Whether callers reach it over HTTPS (replicas.xml has {@code <tls>}). */
    public boolean https() {
        return server instanceof HttpsServer;
    }

    private static String authority(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The address and port it listens on. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** The groups it serves, in replicas.xml's order. */
    public List<GroupConfig> groups() {
        return groups;
    }

    /**
     * How long calls being served may still finish when the gateway stops: a group that answers settles them in
     * milliseconds, while one that is down would hold them, and the gateway's exit, for its whole retransmission
     * schedule. Together with {@link GroupCaller}'s wait for its sequences' termination it keeps the exit on SIGTERM
     * within two seconds whatever the groups' state.
     */
    static final long CALL_GRACE_MILLIS = 400;

    /**
     * Stops taking requests (those being served get {@value #CALL_GRACE_MILLIS} ms, then their connections close),
     * terminates the workers' sequences with the groups, and stops the client engine. Safe to call twice (main and
     * the shutdown hook may both).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_GRACE_MILLIS);
        try {
            while (((java.util.concurrent.ThreadPoolExecutor) workers).getActiveCount() > 0
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        server.stop(0); // Java 17's stop(n) waits all n seconds while any exchange is open
        workers.shutdownNow(); // daemon threads: one still waiting on a group that is down does not hold the exit
        caller.close();
        delete(repository);
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory; the OS cleans it up eventually
        }
    }
}
