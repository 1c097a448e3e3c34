package org.bftws.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.Phase;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * Four echo replicas (f=1, profile mac) in this JVM on 127.0.0.1 and free ports, each an Axis2 engine named by
 * BftwsConfigurator (no system properties), replica3 optionally Byzantine ({@link WrongEchoReplies}). Its
 * replicas.xml also declares a second group, GhostService, whose four nodes are never started: nothing can be decided
 * there. Client: {@code client1}.
 */
final class EchoGroup implements AutoCloseable {

    /** A fresh Axis2 client repository (addressing and bftws engaged), as the gateway command writes one. */
    static Path clientRepository() throws IOException {
        return NodeRepository.forClient(Files.createTempDirectory("bftws-gateway-test-"));
    }
    static final String GROUP = "http://echo.bftws.test/axis2/services/EchoService";
    static final String GHOST = "http://ghost.bftws.test/axis2/services/GhostService";

    final Path replicasXml;
    final WrongEchoReplies wrong = new WrongEchoReplies();
    private final List<NodeHttpServer> servers = new ArrayList<>();
    private final int[] ports;

    EchoGroup(Path dir, boolean byzantineReplica3) throws IOException {
        this(dir, byzantineReplica3, NodeContainer.SIMPLE);
    }

    /** The group with each replica served by {@code container} (Axis2's SimpleHTTPServer or AxisServlet in Jetty). */
    EchoGroup(Path dir, boolean byzantineReplica3, NodeContainer container) throws IOException {
        this(dir, byzantineReplica3, container, false, "binary");
    }

    /**
     * ... over TLS when {@code tls} (replicas.xml's {@code <tls/>}, https:// endpoints), the replicas exchanging PBFT
     * messages over {@code replicaChannel} (binary or soap).
     */
    EchoGroup(Path dir, boolean byzantineReplica3, NodeContainer container, boolean tls, String replicaChannel)
            throws IOException {
        ports = freePorts(8);
        replicasXml = write(dir, Arrays.copyOf(ports, 4), Arrays.copyOfRange(ports, 4, 8), tls, replicaChannel);
        try {
            for (int i = 0; i < 4; i++) {
                String name = "replica" + i;
                Path repo = NodeRepository.forNode(dir.resolve(name), container, ports[i]);
                EchoServiceArchive.writeTo(repo.resolve("services"));
                if (tls) {
                    // over TLS, the status pages are client1's to read (ReplicasOverHttpsTest)
                    Path axis2 = NodeRepository.axis2Xml(repo);
                    Files.writeString(axis2, Files.readString(axis2).replace("<module ref=\"bftws\"/>",
                            "<module ref=\"bftws\"/><moduleConfig name=\"bftws\"><parameter name=\"statusReaders\">"
                                    + "client1</parameter></moduleConfig>"));
                }
                ConfigurationContext ctx = BftwsConfigurator.context(repo, NodeRepository.axis2Xml(repo),
                        replicasXml, name);
                if (i == 3 && byzantineReplica3) {
                    for (Phase phase : ctx.getAxisConfiguration().getOutFlowPhases()) {
                        if ("MessageOut".equals(phase.getPhaseName())) {
                            phase.addHandler(wrong);
                        }
                    }
                }
                servers.add(container == NodeContainer.JETTY
                        ? JettyNodeServer.start(ctx, InetAddress.getLoopbackAddress(), ports[i])
                        : SimpleHttpNodeServer.start(ctx, InetAddress.getLoopbackAddress(), ports[i]));
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Replica {@code i}'s engine. */
    ConfigurationContext context(int i) {
        return servers.get(i).context();
    }

    /** The HTTP port of replica {@code i}. */
    int port(int i) {
        return ports[i];
    }

    private static int[] freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    private static Path write(Path dir, int[] echo, int[] ghost, boolean tls, String replicaChannel)
            throws IOException {
        List<Integer> taken = new ArrayList<>(Arrays.stream(echo).boxed().toList());
        taken.addAll(Arrays.stream(ghost).boxed().toList());
        int[] channels = NodeServer.freePortsAvoiding(8, taken);
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n" + (tls ? "<tls/>\n" : ""));
        String scheme = tls ? "https" : "http";
        group(b, "EchoService", GROUP, "replica", echo, Arrays.copyOf(channels, 4),
                "<protocol clientTimeout=\"5s\"/>", scheme, replicaChannel);
        // nobody listens there: a call is refused at once by every node, the short schedule gives up soon
        group(b, "GhostService", GHOST, "ghost", ghost, Arrays.copyOfRange(channels, 4, 8),
                "<protocol clientTimeout=\"1s\" retransmissionInterval=\"100ms\" maxRetransmissions=\"1\"/>",
                scheme, "binary");
        b.append("<client name=\"client1\"/>\n</replicas>\n");
        Files.createDirectories(dir);
        Path file = Files.writeString(dir.resolve("replicas.xml"), b);
        new KeyGenerator(ReplicasConfigReader.read(file, KeyFileCheck.none()), false).run();
        return file;
    }

    private static void group(StringBuilder b, String service, String endpoint, String prefix, int[] ports,
                              int[] channels, String protocol, String scheme, String replicaChannel) {
        b.append("<group service=\"").append(service).append("\" endpoint=\"").append(endpoint)
                .append("\" f=\"1\" replicaChannel=\"").append(replicaChannel)
                .append("\">\n<security profile=\"mac\"/>\n").append(protocol).append('\n');
        for (int i = 0; i < ports.length; i++) {
            String base = scheme + "://127.0.0.1:" + ports[i] + "/axis2/services/";
            b.append("<node id=\"").append(i).append("\" name=\"").append(prefix).append(i)
                    .append("\" serviceEndpoint=\"").append(base).append(service)
                    .append("\" controlEndpoint=\"").append(base).append("BftControl\" channelEndpoint=\"tcp://127.0.0.1:")
                    .append(channels[i]).append("\"/>\n");
        }
        b.append("</group>\n");
    }

    @Override
    public void close() {
        for (NodeHttpServer s : servers) {
            try {
                s.close();
            } catch (org.apache.axis2.AxisFault e) {
                // the next replica still has to stop
            }
        }
        servers.clear();
    }
}
