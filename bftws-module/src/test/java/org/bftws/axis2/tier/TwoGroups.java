package org.bftws.axis2.tier;

import org.bftws.axis2.standalone.NodeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoRelayService;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * The 3-tier echo in one JVM: four replicas of the echo relay (group EchoRelayService, f=1), four of the backend
 * echo (group EchoService, f=1, which names the relay group as its caller), each an Axis2 engine of its own on a free
 * loopback port, keygen's keys, profile {@code mac}; and client1, which calls the relay group. Closing stops all.
 */
final class TwoGroups implements AutoCloseable {
    static final String RELAY = "http://relay.bftws.test/axis2/services/EchoRelayService";
    static final String BACKEND = "http://echo.bftws.test/axis2/services/EchoService";
    static final Path AXIS2_XML = Path.of("..", "conf", "axis2.xml").toAbsolutePath().normalize();

    private final Path dir;
    private final int[] ports;
    private int restarts;
    final Path replicasXml;
    private final List<SimpleHTTPServer> servers = new ArrayList<>();
    /** relay0..3 then backend0..3. */
    final List<ConfigurationContext> nodes = new ArrayList<>();
    private final List<ConfigurationContext> clients = new ArrayList<>();
    private final String previousBackend;
    private final boolean tls;

    /** Starts both groups; {@code extra}, when not null, joins relay {@code byzantine}'s MessageOut phase. */
    TwoGroups(Path dir, int byzantine, Handler extra) throws Exception {
        this(dir, byzantine, extra, "");
    }

    /** As above; {@code protocol} adds attributes to both groups' {@code <protocol>} element. */
    TwoGroups(Path dir, int byzantine, Handler extra, String protocol) throws Exception {
        this(dir, byzantine, extra, protocol, false);
    }

    /**
     * As above, over TLS when {@code tls}: replicas.xml's {@code <tls/>}, https:// endpoints, every node serving HTTPS
     * on its own server (the module's admitting server), so nested calls go over HTTPS between the groups.
     */
    TwoGroups(Path dir, int byzantine, Handler extra, String protocol, boolean tls) throws Exception {
        this.dir = dir;
        this.tls = tls;
        this.ports = NodeServer.freePorts(16); // HTTP 0..7, binary channels 8..15
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n" + (tls ? "<tls/>\n" : ""));
        String scheme = tls ? "https" : "http";
        group(b, "EchoRelayService", RELAY, "relay", ports, 0, "", protocol, scheme);
        group(b, "EchoService", BACKEND, "backend", ports, 4, "<caller group=\"EchoRelayService\"/>\n", protocol,
                scheme);
        b.append("<client name=\"client1\"/>\n</replicas>\n");
        replicasXml = Files.writeString(dir.resolve("replicas.xml"), b);
        new KeyGenerator(ReplicasConfigReader.read(replicasXml, KeyFileCheck.none()), false).run();
        previousBackend = System.setProperty(EchoRelayService.BACKEND, BACKEND);
        try {
            for (int i = 0; i < 8; i++) {
                String party = i < 4 ? "relay" + i : "backend" + (i - 4);
                ConfigurationContext ctx = BftwsConfigurator.context(repository(dir.resolve(party), true), AXIS2_XML,
                        replicasXml, party);
                if (i == byzantine && extra != null) {
                    for (Phase phase : ctx.getAxisConfiguration().getOutFlowPhases()) {
                        if ("MessageOut".equals(phase.getPhaseName())) {
                            phase.addHandler(extra); // before Security: the replica signs what it altered
                        }
                    }
                }
                nodes.add(ctx);
                servers.add(serve(ctx, ports[i]));
            }
            for (ConfigurationContext ctx : nodes) {
                awaitReplica(ctx);
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** Axis2's server for {@code ctx} on {@code port}; over TLS the module's admitting one, which serves HTTPS. */
    private SimpleHTTPServer serve(ConfigurationContext ctx, int port) throws IOException {
        SimpleHTTPServer server = tls ? new SimpleHTTPServer(new org.bftws.axis2.standalone.AdmittingHttpFactory(ctx,
                java.net.InetAddress.getLoopbackAddress(), port)) : new SimpleHTTPServer(ctx, port);
        server.start();
        return server;
    }

    private static void awaitReplica(ConfigurationContext ctx) throws InterruptedException {
        for (int t = 0; t < 500 && BftwsNode.of(ctx).replica() == null; t++) {
            Thread.sleep(20);
        }
        if (BftwsNode.of(ctx).replica() == null) {
            throw new IllegalStateException("a node did not start its replica role");
        }
    }

    /**
     * Stops node {@code i} (relay0..3, backend4..7 as {@code 4 + k}) and starts it again on its port with a new, empty
     * repository: it knows nothing of what the groups did, and catches up by state transfer.
     */
    void restart(int i) throws Exception {
        servers.get(i).stop();
        nodes.get(i).terminate();
        String party = i < 4 ? "relay" + i : "backend" + (i - 4);
        ConfigurationContext ctx = BftwsConfigurator.context(
                repository(dir.resolve(party + "-restart" + ++restarts), true), AXIS2_XML, replicasXml, party);
        nodes.set(i, ctx);
        servers.set(i, serve(ctx, ports[i]));
        awaitReplica(ctx);
    }

    private static void group(StringBuilder b, String service, String endpoint, String prefix, int[] ports, int first,
                              String callers, String protocol, String scheme) {
        b.append("<group service=\"").append(service).append("\" endpoint=\"").append(endpoint).append("\" f=\"1\">\n")
                .append("<security profile=\"mac\"/>\n<protocol batchMaxDelay=\"1ms\" viewChangeTimeout=\"5s\" "
                        + "retransmissionInterval=\"200ms\" clientTimeout=\"3s\"").append(protocol).append("/>\n");
        for (int i = 0; i < 4; i++) {
            int port = ports[first + i];
            b.append("<node id=\"").append(i).append("\" name=\"").append(prefix).append(i)
                    .append("\" serviceEndpoint=\"").append(scheme).append("://127.0.0.1:").append(port)
                    .append("/axis2/services/").append(service).append("\" controlEndpoint=\"").append(scheme)
                    .append("://127.0.0.1:").append(port)
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:")
                    .append(ports[8 + first + i]).append("\"/>\n");
        }
        b.append(callers).append("</group>\n");
    }

    static Path repository(Path dir, boolean withServices) throws IOException {
        Path modules = Files.createDirectories(dir.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("services"));
        if (withServices) {
            EchoServiceArchive.writeTo(dir.resolve("services"));
        }
        return dir;
    }

    /** A ServiceClient of client1 addressed to the relay group. */
    ServiceClient client() throws Exception {
        ConfigurationContext ctx = BftwsConfigurator.context(repository(dir.resolve("client" + clients.size()), false),
                AXIS2_XML, replicasXml, "client1");
        clients.add(ctx);
        ServiceClient c = new ServiceClient(ctx, null);
        Options o = new Options();
        o.setTo(new EndpointReference(RELAY));
        o.setAction("http://bftws.org/samples/echo/echo");
        o.setTimeOutInMilliSeconds(60_000);
        c.setOptions(o);
        return c;
    }

    BftwsNode relay(int i) {
        return BftwsNode.of(nodes.get(i));
    }

    BftwsNode backend(int i) {
        return BftwsNode.of(nodes.get(4 + i));
    }

    @Override
    public void close() throws Exception {
        for (ConfigurationContext c : clients) {
            c.terminate();
        }
        for (SimpleHTTPServer s : servers) {
            s.stop();
        }
        for (ConfigurationContext c : nodes) {
            c.terminate();
        }
        if (previousBackend == null) {
            System.clearProperty(EchoRelayService.BACKEND);
        } else {
            System.setProperty(EchoRelayService.BACKEND, previousBackend);
        }
    }
}
