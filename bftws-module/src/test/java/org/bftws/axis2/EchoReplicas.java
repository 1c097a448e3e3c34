package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.security.KeyGenerator;

/**
 * A four-replica echo group (f=1, Configuration I) on this JVM: replicas.xml with the endpoints a test chooses (a real
 * node, a proxy in front of one, or a socket that never answers), keygen's keys when the profile needs them, and
 * in-process nodes, each an Axis2 engine of its own whose bftws module knows its party name. The nodes order requests
 * with PBFT; a node's control endpoint is reached the way its service endpoint is (directly, through a test proxy,
 * or not at all for a silent node).
 */
final class EchoReplicas implements AutoCloseable {
    static final String GROUP = "http://echo.bftws.test/axis2/services/EchoService";
    static final String SERVICE_PATH = "/axis2/services/EchoService";

    final Path dir;
    final Path replicasXml;
    private final List<SimpleHTTPServer> servers = new ArrayList<>();
    private final List<ConfigurationContext> contexts = new ArrayList<>();
    private final List<ConfigurationContext> clients = new ArrayList<>();

    /**
     * @param protocol  attributes of replicas.xml's protocol element, e.g. {@code clientTimeout="500ms"}
     * @param endpoints the four nodes' service endpoints
     */
    EchoReplicas(Path dir, String profile, String protocol, List<String> endpoints) {
        this(dir, profile, protocol, endpoints, endpoints.stream()
                .map(e -> e.replace(SERVICE_PATH, "/axis2/services/BftControl")).toList());
    }

    /** Free ports for the binary channels, none of them a port the nodes' HTTP endpoints already use. */
    private static int[] channelPorts(int n, List<String> endpoints, List<String> controls) {
        java.util.Set<Integer> taken = new java.util.HashSet<>();
        java.util.stream.Stream.concat(endpoints.stream(), controls.stream())
                .forEach(url -> taken.add(java.net.URI.create(url).getPort()));
        try {
            return NodeServer.freePortsAvoiding(n, taken);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As above, with the nodes' control endpoints given (PBFT traffic may bypass a test proxy or silent socket). */
    EchoReplicas(Path dir, String profile, String protocol, List<String> endpoints, List<String> controls) {
        this.dir = dir;
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"EchoService\" endpoint=\"" + GROUP + "\" f=\"1\">\n"
                + "<security profile=\"" + profile + "\"/>\n<protocol " + protocol + "/>\n");
        int[] channels = channelPorts(endpoints.size(), endpoints, controls);
        for (int i = 0; i < endpoints.size(); i++) {
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" serviceEndpoint=\"")
                    .append(endpoints.get(i)).append("\" controlEndpoint=\"").append(controls.get(i))
                    .append("\" channelEndpoint=\"tcp://127.0.0.1:").append(channels[i]).append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        try {
            Files.createDirectories(dir);
            replicasXml = Files.writeString(dir.resolve("replicas.xml"), b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!"none".equals(profile)) {
            new KeyGenerator(ReplicasConfigReader.read(replicasXml, KeyFileCheck.none()), false).run();
        }
    }

    /**
     * Four replicas on {@code ports} whose replica3 clients reach through {@code proxy} (its PBFT channel and control
     * service stay direct), as tests that lose or repeat replica3's client traffic need.
     */
    static EchoReplicas withReplica3Behind(LossyProxy proxy, Path dir, String profile, int[] ports) {
        return new EchoReplicas(dir, profile, "", List.of(endpoint(ports[0]), endpoint(ports[1]), endpoint(ports[2]),
                proxy.address(SERVICE_PATH)), List.of(control(ports[0]), control(ports[1]), control(ports[2]),
                control(ports[3])));
    }

    /** Starts replica i on {@code ports[i]}, each with the echo sample. */
    ConfigurationContext[] startAll(int[] ports) throws IOException {
        ConfigurationContext[] nodes = new ConfigurationContext[ports.length];
        for (int i = 0; i < ports.length; i++) {
            nodes[i] = startNode(i, ports[i], null);
        }
        return nodes;
    }

    static String control(int port) {
        return "http://127.0.0.1:" + port + "/axis2/services/BftControl";
    }

    static String endpoint(int port) {
        return "http://127.0.0.1:" + port + SERVICE_PATH;
    }

    /** Starts replica {@code index} with the echo sample on {@code port}; {@code extra} joins its MessageOut phase. */
    ConfigurationContext startNode(int index, int port, Handler extra) throws IOException {
        Path repo = TestNodes.repository(dir.resolve("replica" + index), true);
        ConfigurationContext ctx = BftwsConfigurator.context(repo, TestNodes.AXIS2_XML, replicasXml,
                "replica" + index);
        if (extra != null) {
            for (Phase phase : ctx.getAxisConfiguration().getOutFlowPhases()) {
                if ("MessageOut".equals(phase.getPhaseName())) {
                    phase.addHandler(extra); // before the Security phase: the replica signs what it rewrote
                }
            }
        }
        contexts.add(ctx);
        SimpleHTTPServer server = new SimpleHTTPServer(ctx, port);
        server.start();
        servers.add(server);
        return ctx;
    }

    /** A client engine (addressing and bftws engaged by conf/axis2.xml) acting as client1. */
    ConfigurationContext client() throws IOException {
        ConfigurationContext ctx = BftwsConfigurator.context(TestNodes.repository(dir.resolve("client"), false),
                TestNodes.AXIS2_XML, replicasXml, "client1");
        clients.add(ctx);
        return ctx;
    }

    @Override
    public void close() throws Exception {
        // clients first: their pooled keep-alive connections would hold each server's workers for seconds
        for (ConfigurationContext c : clients) {
            c.terminate();
        }
        for (SimpleHTTPServer s : servers) {
            s.stop();
        }
        for (ConfigurationContext c : contexts) {
            c.terminate();
        }
    }
}
