package org.bftws.client;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.bftws.axis2.client.BftwsConfigurator;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoService;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * Echo nodes in this JVM for the client's tests: each an Axis2 engine of its own with conf/axis2.xml (addressing and
 * bftws engaged; both modules come from the classpath), the echo sample, and its own party name.
 */
final class EchoNodes implements AutoCloseable {
    static final Path AXIS2_XML = Path.of("..", "conf", "axis2.xml").toAbsolutePath().normalize();
    static final String GROUP = "http://echo.bftws.test/axis2/services/EchoService";
    static final String ACTION = EchoService.NS + "/";
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    private final Path dir;
    private final List<SimpleHTTPServer> servers = new ArrayList<>();
    private final List<ConfigurationContext> contexts = new ArrayList<>();

    EchoNodes(Path dir) {
        this.dir = dir;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String endpoint(int port) {
        return "http://127.0.0.1:" + port + "/axis2/services/EchoService";
    }

    /** replicas.xml for four replicas (f=1) on {@code ports} and client1, with keygen's keys for {@code profile}. */
    static Path groupConfig(Path dir, String profile, int... ports) throws IOException {
        return groupConfig(dir, profile, "clientTimeout=\"5s\"", ports);
    }

    /** As above, with the attributes of replicas.xml's protocol element, e.g. {@code clientTimeout="500ms"}. */
    static Path groupConfig(Path dir, String profile, String protocol, int... ports) throws IOException {
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"EchoService\" endpoint=\"" + GROUP + "\" f=\"1\">\n"
                + "<security profile=\"" + profile + "\"/>\n<protocol " + protocol + "/>\n");
        java.util.List<Integer> taken = java.util.Arrays.stream(ports).boxed().toList();
        int[] channels = org.bftws.axis2.standalone.NodeServer.freePortsAvoiding(ports.length, taken);
        for (int i = 0; i < ports.length; i++) {
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" serviceEndpoint=\"")
                    .append(endpoint(ports[i])).append("\" controlEndpoint=\"http://127.0.0.1:").append(ports[i])
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(channels[i])
                    .append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        Files.createDirectories(dir);
        Path file = Files.writeString(dir.resolve("replicas.xml"), b);
        if (!"none".equals(profile)) {
            new KeyGenerator(ReplicasConfigReader.read(file, KeyFileCheck.none()), false).run();
        }
        return file;
    }

    /** Starts an echo node as {@code party} of {@code replicasXml} (both may be null: a plain WS-RM node). */
    ConfigurationContext start(String name, int port, Path replicasXml, String party, Handler beforeSigning)
            throws IOException {
        Path repo = dir.resolve(name);
        EchoServiceArchive.writeTo(repo.resolve("services"));
        ConfigurationContext ctx = BftwsConfigurator.context(repo, AXIS2_XML, replicasXml, party);
        if (beforeSigning != null) {
            for (Phase phase : ctx.getAxisConfiguration().getOutFlowPhases()) {
                if ("MessageOut".equals(phase.getPhaseName())) {
                    phase.addHandler(beforeSigning);
                }
            }
        }
        contexts.add(ctx);
        SimpleHTTPServer server = new SimpleHTTPServer(ctx, port);
        server.start();
        servers.add(server);
        return ctx;
    }

    static OMElement echo(String... items) {
        OMElement e = F.createOMElement("echo", E);
        for (String i : items) {
            F.createOMElement("item", E, e).setText(i);
        }
        return e;
    }

    static OMElement append(String value) {
        OMElement e = F.createOMElement("append", E);
        F.createOMElement("value", E, e).setText(value);
        return e;
    }

    static OMElement element(String name) {
        return F.createOMElement(name, E);
    }

    static List<String> texts(OMElement parent) {
        List<String> out = new ArrayList<>();
        for (Iterator<OMElement> it = parent.getChildElements(); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        for (SimpleHTTPServer s : servers) {
            s.stop();
        }
        for (ConfigurationContext c : contexts) {
            c.terminate();
        }
    }
}
