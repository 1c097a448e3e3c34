package org.bftws.axis2.ordering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.context.ServiceContext;
import org.apache.axis2.context.ServiceGroupContext;
import org.apache.axis2.description.AxisService;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.NodeServer;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicaChannelKind;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoService;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * Four real replicas of the echo sample in one JVM (Configuration I, f=1), each an Axis2 node with its own
 * repository and axis2.xml naming its party, over real HTTP on free loopback ports; and a client configuration
 * that calls the group endpoint. Closing it stops every node.
 */
final class BftTestGroup implements AutoCloseable {

    static final String GROUP_ENDPOINT = "http://echo.bftws.group/axis2/services/EchoService";
    static final Path AXIS2_XML = Path.of("..", "conf", "axis2.xml").toAbsolutePath().normalize();
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    private final Path dir;
    private final Path replicasXml;
    final NodeServer[] nodes;
    private final int[] ports;
    /** Each node's binary channel port (unused on the SOAP channel). */
    final int[] channelPorts;
    private final Path[] axis2;
    /** Node names in replicas.xml order (agreement nodes first, then Configuration III's execution nodes). */
    final java.util.List<String> names;
    private final List<ConfigurationContext> clients = new ArrayList<>();

    private BftTestGroup(Path dir, Path replicasXml, java.util.List<String> names) {
        this.dir = dir;
        this.replicasXml = replicasXml;
        this.names = names;
        this.nodes = new NodeServer[names.size()];
        this.ports = new int[names.size()];
        this.channelPorts = new int[names.size()];
        this.axis2 = new Path[names.size()];
    }

    /** The roles of a configuration's nodes (f=1): I four agree-execute; II three and one agree; III 4 + 3 execute. */
    static java.util.List<String> roles(String configuration) {
        return switch (configuration) {
            case "II" -> java.util.List.of("agree-execute", "agree-execute", "agree-execute", "agree");
            case "III" -> java.util.List.of("agree", "agree", "agree", "agree", "execute", "execute", "execute");
            default -> java.util.List.of("agree-execute", "agree-execute", "agree-execute", "agree-execute");
        };
    }

    /** Starts a group of {@code configuration} (I, II, III) with security {@code profile}. */
    static BftTestGroup start(Path dir, String profile, String protocol, String configuration) throws Exception {
        return start(dir, profile, protocol, -1, WrongRepliesHandler.class, false, configuration);
    }

    /** Starts four replicas with security {@code profile} (none, mac, wssec). */
    static BftTestGroup start(Path dir, String profile, String protocol) throws Exception {
        return start(dir, profile, protocol, -1);
    }

    /** As {@link #start(Path, String, String)}, with replica {@code byzantine} answering wrong replies (or -1). */
    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine) throws Exception {
        return start(dir, profile, protocol, byzantine, false);
    }

    /** ... and, when {@code durable}, a data directory for every replica (replicas.xml's dataDirectory). */
    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine, boolean durable) throws Exception {
        return start(dir, profile, protocol, byzantine, WrongRepliesHandler.class, durable);
    }

    /** ... with replica {@code byzantine} running the test-only out-flow handler {@code byzantineHandler}. */
    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine,
                              Class<? extends org.apache.axis2.handlers.AbstractHandler> byzantineHandler,
                              boolean durable) throws Exception {
        return start(dir, profile, protocol, byzantine, byzantineHandler, durable, "I");
    }

    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine,
                              Class<? extends org.apache.axis2.handlers.AbstractHandler> byzantineHandler,
                              boolean durable, String configuration) throws Exception {
        return start(dir, profile, protocol, byzantine, byzantineHandler, durable, configuration,
                ReplicaChannelKind.BINARY);
    }

    /** Four replicas (Configuration I) with security {@code profile} exchanging PBFT messages over {@code channel}. */
    static BftTestGroup start(Path dir, String profile, String protocol, ReplicaChannelKind channel) throws Exception {
        return start(dir, profile, protocol, -1, WrongRepliesHandler.class, false, "I", channel);
    }

    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine,
                              Class<? extends org.apache.axis2.handlers.AbstractHandler> byzantineHandler,
                              boolean durable, String configuration, ReplicaChannelKind channel) throws Exception {
        return start(dir, profile, protocol, byzantine, byzantineHandler, durable, configuration, channel, false);
    }

    /**
     * Four replicas (Configuration I) with security {@code profile} over TLS (replicas.xml's {@code <tls/>}): HTTPS
     * endpoints on the nodes' own server, the PBFT messages over {@code channel} (binary over TLS, or SOAP over HTTPS).
     */
    static BftTestGroup startTls(Path dir, String profile, String protocol, ReplicaChannelKind channel)
            throws Exception {
        return start(dir, profile, protocol, -1, WrongRepliesHandler.class, false, "I", channel, true);
    }

    static BftTestGroup start(Path dir, String profile, String protocol, int byzantine,
                              Class<? extends org.apache.axis2.handlers.AbstractHandler> byzantineHandler,
                              boolean durable, String configuration, ReplicaChannelKind channel, boolean tls)
            throws Exception {
        java.util.List<String> roles = roles(configuration);
        int n = roles.size();
        int[] ports = NodeServer.freePorts(2 * n); // HTTP, then the binary channels
        java.util.List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(roles.get(i).equals("execute") ? "exec" + (i - 4) : "replica" + i);
        }
        Path xml = writeReplicasXml(dir, profile, protocol, ports, durable, configuration, roles, names, channel, tls);
        if (!"none".equals(profile)) {
            new KeyGenerator(ReplicasConfigReader.read(xml, KeyFileCheck.none()), false).run();
        }
        BftTestGroup g = new BftTestGroup(dir, xml, names);
        System.arraycopy(ports, n, g.channelPorts, 0, n);
        try {
            for (int i = 0; i < n; i++) {
                Path axis2 = axis2Xml(dir, names.get(i), xml);
                if (i == byzantine) {
                    Files.writeString(axis2, Files.readString(axis2).replace("<phase name=\"OperationOutPhase\"/>",
                            "<phase name=\"OperationOutPhase\"><handler name=\"Byzantine\" class=\""
                                    + byzantineHandler.getName() + "\"/></phase>"));
                }
                g.ports[i] = ports[i];
                g.axis2[i] = axis2;
                // An agreement-only node does not run the service (paper 3.3.2): its repository has no echo.
                g.nodes[i] = NodeServer.start(repository(dir.resolve(names.get(i)), !roles.get(i).equals("agree")),
                        axis2, ports[i]);
            }
            for (int i = 0; i < n; i++) {
                g.awaitReplica(i);
            }
        } catch (Exception e) {
            g.close();
            throw e;
        }
        return g;
    }

    static String protocol(int checkpointInterval, String viewChangeTimeout) {
        return "<protocol checkpointInterval=\"" + checkpointInterval + "\" watermarkWindow=\"" + (checkpointInterval * 4)
                + "\" batchMaxSize=\"16\" batchMaxDelay=\"1ms\" maxBatchesInFlight=\"2\" viewChangeTimeout=\""
                + viewChangeTimeout + "\" retransmissionInterval=\"200ms\" maxRetransmissions=\"8\" clientTimeout=\"3s\"/>";
    }

    private void awaitReplica(int i) throws InterruptedException {
        for (int t = 0; t < 500 && node(i).replica() == null; t++) {
            Thread.sleep(20);
        }
        if (node(i).replica() == null) {
            throw new IllegalStateException(names.get(i) + " did not start its replica role");
        }
    }

    private static Path writeReplicasXml(Path dir, String profile, String protocol, int[] ports, boolean durable,
                                         String configuration, java.util.List<String> roles, java.util.List<String> names,
                                         ReplicaChannelKind channel, boolean tls) throws IOException {
        int n = names.size();
        String scheme = tls ? "https" : "http";
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n" + (tls ? "<tls/>\n" : "")
                + "<group service=\"EchoService\" endpoint=\"" + GROUP_ENDPOINT + "\" f=\"1\" configuration=\""
                + configuration + "\"" + (durable ? " dataDirectory=\"data\"" : "") + " replicaChannel=\""
                + channel.name().toLowerCase(java.util.Locale.ROOT) + "\">\n"
                + "<security profile=\"" + profile + "\" timestampTtl=\"5m\" clockSkew=\"1m\"/>\n" + protocol + "\n");
        for (int i = 0; i < n; i++) {
            int id = roles.get(i).equals("execute") ? i - 4 : i;
            b.append("<node id=\"").append(id).append("\" name=\"").append(names.get(i))
                    .append("\" role=\"").append(roles.get(i))
                    .append("\" serviceEndpoint=\"").append(scheme).append("://127.0.0.1:").append(ports[i])
                    .append("/axis2/services/EchoService\" controlEndpoint=\"").append(scheme).append("://127.0.0.1:")
                    .append(ports[i])
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(ports[n + i])
                    .append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        Path file = dir.resolve("replicas.xml");
        Files.writeString(file, b);
        return file;
    }

    private static Path repository(Path dir, boolean withService) throws IOException {
        Path modules = Files.createDirectories(dir.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("services"));
        if (withService) {
            EchoServiceArchive.writeTo(dir.resolve("services"));
        }
        return dir;
    }

    /** conf/axis2.xml with the bftws module pointed at replicas.xml and this node's (or client's) name. */
    private static Path axis2Xml(Path dir, String party, Path replicasXml) throws IOException {
        String xml = Files.readString(AXIS2_XML).replace("<module ref=\"bftws\"/>",
                "<module ref=\"bftws\"/>\n<moduleConfig name=\"bftws\"><parameter name=\"replicasConfig\">"
                        + replicasXml + "</parameter><parameter name=\"party\">" + party + "</parameter>"
                        + "<parameter name=\"holdTimeoutMillis\">20000</parameter>"
                        // over TLS, the status pages are client1's to read (ConfigurationIOverTlsTest)
                        + (Files.readString(replicasXml).contains("<tls/>")
                        ? "<parameter name=\"statusReaders\">client1</parameter>" : "") + "</moduleConfig>");
        Path file = dir.resolve("axis2-" + party + ".xml");
        Files.writeString(file, xml);
        return file;
    }

    /** A ServiceClient of client1 addressed to the group endpoint (each has its own client configuration). */
    ServiceClient client() throws Exception {
        return client(replicasXml, null);
    }

    /** The deployment's replicas.xml (the replicas' and, by default, the clients'). */
    Path replicasXml() {
        return replicasXml;
    }

    /**
     * A client that reads {@code clientReplicasXml} (it may declare what the replicas' file does not) and, unless
     * null, runs the test-only handler {@code afterSecurity} after its security handler (a network attacker's edit
     * of the authenticated message).
     */
    ServiceClient client(Path clientReplicasXml, Class<?> afterSecurity) throws Exception {
        Path repo = dir.resolve("client" + clients.size());
        Files.createDirectories(repo.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), repo.resolve("modules").resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Path clientAxis2 = axis2Xml(repo, "client1", clientReplicasXml);
        if (afterSecurity != null) {
            Files.writeString(clientAxis2, Files.readString(clientAxis2).replaceFirst(
                    "<phase name=\"MessageOut\"/>\\s*<phase name=\"Security\"/>",
                    "<phase name=\"MessageOut\"/><phase name=\"Security\"/><phase name=\"Tamper\"><handler name=\"Tamper\" class=\""
                            + afterSecurity.getName() + "\"/></phase>"));
        }
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(repo.toString(),
                clientAxis2.toString());
        clients.add(ctx);
        ServiceClient c = new ServiceClient(ctx, null);
        Options o = new Options();
        o.setTo(new EndpointReference(GROUP_ENDPOINT));
        o.setTimeOutInMilliSeconds(60_000);
        c.setOptions(o);
        return c;
    }

    /** The echo sample's calls, shared with the single-node tests ({@link org.bftws.axis2.TestNodes}). */
    static OMElement call(ServiceClient client, OMElement request) throws org.apache.axis2.AxisFault {
        return org.bftws.axis2.TestNodes.call(client, request);
    }

    static OMElement append(String value) {
        return org.bftws.axis2.TestNodes.append(value);
    }

    static OMElement echo(String... items) {
        return org.bftws.axis2.TestNodes.echo(items);
    }

    static String child(OMElement parent, String name) {
        return org.bftws.axis2.TestNodes.child(parent, name);
    }

    /** Replica {@code i}'s echo state, read in-process from its service instance (count and running digest). */
    String state(int i) throws Exception {
        ConfigurationContext ctx = nodes[i].context();
        AxisService service = ctx.getAxisConfiguration().getService("EchoService");
        ServiceGroupContext group = ctx.getServiceGroupContext(service.getAxisServiceGroup().getServiceGroupName());
        if (group == null) {
            return "no state yet";
        }
        ServiceContext sc = group.getServiceContext(service);
        EchoService echo = (EchoService) sc.getProperty(ServiceContext.SERVICE_OBJECT);
        if (echo == null) {
            return "no state yet";
        }
        OMElement state = echo.get_state(F.createOMElement("get_state", E)).getFirstElement();
        return state.getAttributeValue(new QName("digest")) + "/" + state.getAttributeValue(new QName("count"));
    }

    /** Starts replica {@code i} again on its port, with its repository and (if any) its data directory. */
    void restart(int i) throws Exception {
        nodes[i] = NodeServer.start(dir.resolve(names.get(i)), axis2[i], ports[i]);
        awaitReplica(i);
    }

    /** Stops replica {@code i} (a crash, as far as the others can tell). */
    void stop(int i) throws Exception {
        nodes[i].close();
        nodes[i] = null;
    }

    ConfigurationContext context(int i) {
        return nodes[i].context();
    }

    BftwsNode node(int i) {
        return BftwsNode.of(nodes[i].context());
    }

    @Override
    public void close() throws Exception {
        for (ConfigurationContext c : clients) {
            c.terminate();
        }
        for (NodeServer n : nodes) {
            if (n != null) {
                n.close();
            }
        }
    }
}
