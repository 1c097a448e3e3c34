package org.bftws.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.core.ReplyPolicy;

/**
 * Configures a {@link BftClient}. Everything is optional: with nothing set the client runs on its built-in client
 * axis2.xml with the modules it finds on the classpath (the bftws-module jar, and addressing-1.8.2.mar, which must be
 * put on the classpath explicitly) and knows no groups, so every address is a plain WS-RM endpoint.
 *
 * <pre>{@code
 * BftClient client = BftClient.builder()
 *         .replicas(Path.of("conf/replicas.xml"))     // the groups, their nodes, keys and timeouts
 *         .party("client1")                          // this client's name there: its keystore signs requests
 *         .replyPolicy("http://example.org/bank/balance", ReplyPolicy.STRONG_QUORUM)
 *         .build();
 * }</pre>
 */
public final class BftClientBuilder {
    private static final String BUNDLED_AXIS2_XML = "/org/bftws/client/axis2-client.xml";

    private Path repository;
    private Path axis2Xml;
    private Path replicas;
    private String party;
    private ReplyPolicy defaultPolicy;
    private final Map<String, ReplyPolicy> policies = new HashMap<>();
    private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
    private Duration closeGrace = DEFAULT_CLOSE_GRACE;

    /** Default of {@link #maxInFlight}. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 32;
    /**
     * The most {@link #maxInFlight} may be: each slot can hold a live sequence per endpoint at the replicas, whose
     * default limit ({@code maxSequences}) is 1000 for all their clients together.
     */
    public static final int MAX_IN_FLIGHT_LIMIT = 512;
    /** Default of {@link #closeGrace}. */
    public static final Duration DEFAULT_CLOSE_GRACE = Duration.ofSeconds(30);

    BftClientBuilder() {
    }

    /** An Axis2 repository directory (modules/*.mar, axis2.xml); default: none, modules from the classpath. */
    public BftClientBuilder repository(Path directory) {
        this.repository = Objects.requireNonNull(directory, "repository");
        return this;
    }

    /** The axis2.xml to use; default: the repository's, else BftClient's built-in client configuration. */
    public BftClientBuilder axis2Xml(Path file) {
        this.axis2Xml = Objects.requireNonNull(file, "axis2Xml");
        return this;
    }

    /** conf/replicas.xml: which addresses are group endpoints, their replicas, keys and client timeouts. */
    public BftClientBuilder replicas(Path file) {
        this.replicas = Objects.requireNonNull(file, "replicas");
        return this;
    }

    /** This client's name in replicas.xml ({@code <client name=...>}): needed when a group signs or MACs. */
    public BftClientBuilder party(String name) {
        this.party = Objects.requireNonNull(name, "party");
        return this;
    }

    /** The reply policy of every operation without one of its own (default WEAK_QUORUM: f+1 identical replies). */
    public BftClientBuilder replyPolicy(ReplyPolicy policy) {
        this.defaultPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** The reply policy of the operation whose wsa:Action is {@code action}. */
    public BftClientBuilder replyPolicy(String action, ReplyPolicy policy) {
        policies.put(Objects.requireNonNull(action, "action"), Objects.requireNonNull(policy, "policy"));
        return this;
    }

    /**
     * How many {@link BftClient#callAsync} calls may be in flight at once (default 32, at most 512). Each in-flight
     * call holds a worker thread (the vote is waited for on it) and its own WS-RM sequence per endpoint, which the
     * replicas keep until {@link BftClient#close}; a caller beyond the limit waits in {@code callAsync} until a call
     * ends.
     */
    public BftClientBuilder maxInFlight(int calls) {
        if (calls < 1 || calls > MAX_IN_FLIGHT_LIMIT) {
            throw new IllegalArgumentException("maxInFlight must be between 1 and " + MAX_IN_FLIGHT_LIMIT + ", not "
                    + calls);
        }
        this.maxInFlight = calls;
        return this;
    }

    /**
     * How long {@link BftClient#close} waits for asynchronous calls in flight before it fails them (default 30 s; a
     * call ends by itself at its decision, or when no reply can be decided any more, which with the default
     * retransmission schedule can take about 2 minutes).
     */
    public BftClientBuilder closeGrace(Duration grace) {
        if (Objects.requireNonNull(grace, "closeGrace").isNegative()) {
            throw new IllegalArgumentException("closeGrace must not be negative: " + grace);
        }
        this.closeGrace = grace;
        return this;
    }

    /** Creates the client's Axis2 engine; AxisFault naming the problem when a file or module is missing. */
    public BftClient build() throws AxisFault {
        ConfigurationContext context = createContext();
        try {
            return new BftClient(context, defaultPolicy, policies, maxInFlight, closeGrace);
        } catch (AxisFault | RuntimeException e) {
            context.terminate();
            throw e;
        }
    }

    private ConfigurationContext createContext() throws AxisFault {
        boolean ownXml = axis2Xml != null || repository != null && Files.exists(repository.resolve("axis2.xml"));
        Path bundled = ownXml ? null : bundledAxis2Xml();
        try {
            return BftwsConfigurator.context(repository, ownXml ? axis2Xml : bundled, replicas, party);
        } catch (AxisFault e) {
            if (String.valueOf(e.getMessage()).contains("not available: addressing")) {
                throw new AxisFault("bftws: the WS-Addressing module was not found. Put"
                        + " org.apache.axis2:addressing:1.8.2 (the .mar file; Maven does not add type mar to a"
                        + " classpath by itself) on the classpath, or give a repository whose modules directory holds"
                        + " addressing.mar", e);
            }
            throw e;
        } finally {
            if (bundled != null) {
                deleteQuietly(bundled); // read while the engine was created, not needed after
            }
        }
    }

    /** The built-in client axis2.xml, copied to a file because Axis2's file-system configurator reads files. */
    private static Path bundledAxis2Xml() throws AxisFault {
        try (InputStream in = BftClientBuilder.class.getResourceAsStream(BUNDLED_AXIS2_XML)) {
            if (in == null) {
                throw new AxisFault("bftws: " + BUNDLED_AXIS2_XML + " is missing from the bftws-client jar");
            }
            Path file = Files.createTempFile("bftws-client-axis2", ".xml");
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new AxisFault("bftws: cannot write the client's axis2.xml to a temporary file: " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}
