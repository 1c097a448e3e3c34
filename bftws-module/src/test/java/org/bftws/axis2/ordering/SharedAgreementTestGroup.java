package org.bftws.axis2.ordering;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
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
import org.bftws.config.ReplicasConfigReader;
import org.bftws.samples.echo.EchoService;
import org.bftws.samples.echo.EchoServiceArchive;
import org.bftws.samples.kv.KvRequests;
import org.bftws.samples.kv.KvService;
import org.bftws.samples.kv.KvServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * Configuration III shared by two services (f=1), in one JVM over real HTTP: one {@code <agreementGroup>} whose four
 * agreement nodes agree0..3 order EchoService and KvService, each service with its own three execution nodes
 * (echo-exec0..2, kv-exec0..2). An agreement node is one Axis2 node per service it orders (its 'service' setting
 * says which), all under the one party name and keys. Closing it stops every node.
 */
final class SharedAgreementTestGroup implements AutoCloseable {

    static final String ECHO = "EchoService";
    static final String KV = "KvService";
    static final List<String> SERVICES = List.of(ECHO, KV);
    static final Map<String, String> ENDPOINTS = Map.of(ECHO, "http://echo.bftws.group/axis2/services/EchoService",
            KV, "http://kv.bftws.group/axis2/services/KvService");

    /** One Axis2 node: a party serving one service. */
    record Engine(String party, String service, boolean executes, int port, int channelPort) {
        String key() {
            return party + "/" + service;
        }
    }

    private final Path dir;
    private final Path replicasXml;
    /** By {@link Engine#key()}, agreement nodes first, in replicas.xml order. */
    private final Map<String, Engine> engines = new LinkedHashMap<>();
    private final Map<String, NodeServer> running = new LinkedHashMap<>();
    private final List<ConfigurationContext> clients = new ArrayList<>();

    private SharedAgreementTestGroup(Path dir, Path replicasXml, List<Engine> engines) {
        this.dir = dir;
        this.replicasXml = replicasXml;
        engines.forEach(e -> this.engines.put(e.key(), e));
    }

    static String execName(String service, int i) {
        return (service.equals(ECHO) ? "echo" : "kv") + "-exec" + i;
    }

    /** Writes replicas.xml (security {@code profile}, a {@code <protocol>} element), makes keys, starts every node. */
    static SharedAgreementTestGroup start(Path dir, String profile, String protocol) throws Exception {
        int perService = 4 + 3;
        int[] ports = NodeServer.freePorts(2 * perService * SERVICES.size()); // HTTP, then the binary channels
        int half = ports.length / 2;
        List<Engine> engines = new ArrayList<>();
        StringBuilder x = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<agreementGroup f=\"1\">\n<security profile=\"" + profile + "\"/>\n" + protocol + "\n");
        int k = 0;
        for (String service : SERVICES) {
            x.append("<service name=\"").append(service).append("\" endpoint=\"").append(ENDPOINTS.get(service))
                    .append("\">\n");
            for (int i = 0; i < perService; i++, k++) {
                boolean executes = i >= 4;
                Engine e = new Engine(executes ? execName(service, i - 4) : "agree" + i, service, executes, ports[k],
                        ports[half + k]);
                engines.add(e);
                String base = "http://127.0.0.1:" + e.port() + "/axis2/services/";
                x.append("<node id=\"").append(executes ? i - 4 : i).append("\" name=\"").append(e.party())
                        .append("\" role=\"").append(executes ? "execute" : "agree").append("\" serviceEndpoint=\"")
                        .append(base).append(service).append("\" controlEndpoint=\"").append(base)
                        .append("BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(e.channelPort())
                        .append("\"/>\n");
            }
            x.append("</service>\n");
        }
        x.append("</agreementGroup>\n<client name=\"client1\"/>\n</replicas>\n");
        Files.createDirectories(dir);
        Path xml = Files.writeString(dir.resolve("replicas.xml"), x);
        if (!"none".equals(profile)) {
            new KeyGenerator(ReplicasConfigReader.read(xml, KeyFileCheck.none()), false).run();
        }
        SharedAgreementTestGroup g = new SharedAgreementTestGroup(dir, xml, engines);
        try {
            for (Engine e : engines) {
                g.startEngine(e);
            }
            for (Engine e : engines) {
                g.awaitReplica(e);
            }
        } catch (Exception e) {
            g.close();
            throw e;
        }
        return g;
    }

    private void startEngine(Engine e) throws Exception {
        Path repo = dir.resolve(e.party() + "-" + e.service());
        Path modules = Files.createDirectories(repo.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Path services = Files.createDirectories(repo.resolve("services"));
        if (e.executes() && e.service().equals(ECHO)) {
            EchoServiceArchive.writeTo(services);
        } else if (e.executes()) {
            KvServiceArchive.writeTo(services);
        } // an agreement-only node does not run the service (paper 3.3.3): a stand-in takes its requests
        running.put(e.key(), NodeServer.start(repo, axis2Xml(e.party(), e.executes() ? null : e.service()), e.port()));
    }

    private void awaitReplica(Engine e) throws InterruptedException {
        for (int t = 0; t < 500 && node(e.party(), e.service()).replica() == null; t++) {
            Thread.sleep(20);
        }
        if (node(e.party(), e.service()).replica() == null) {
            throw new IllegalStateException(e.key() + " did not start its replica role");
        }
    }

    /** conf/axis2.xml for {@code party}; an agreement node's names the service this Axis2 node orders. */
    private Path axis2Xml(String party, String service) throws IOException {
        String xml = Files.readString(BftTestGroup.AXIS2_XML).replace("<module ref=\"bftws\"/>",
                "<module ref=\"bftws\"/>\n<moduleConfig name=\"bftws\"><parameter name=\"replicasConfig\">"
                        + replicasXml + "</parameter><parameter name=\"party\">" + party + "</parameter>"
                        + (service == null ? "" : "<parameter name=\"service\">" + service + "</parameter>")
                        + "<parameter name=\"holdTimeoutMillis\">20000</parameter></moduleConfig>");
        return Files.writeString(dir.resolve("axis2-" + party + (service == null ? "" : "-" + service) + ".xml"), xml);
    }

    /** A ServiceClient of client1 on an engine of its own, addressed to {@code service}'s group endpoint. */
    ServiceClient client(String service) throws Exception {
        Path repo = dir.resolve("client" + clients.size());
        Files.createDirectories(repo.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"),
                repo.resolve("modules").resolve("addressing.mar"), StandardCopyOption.REPLACE_EXISTING);
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), axis2Xml("client1", null).toString());
        clients.add(ctx);
        ServiceClient c = new ServiceClient(ctx, null);
        Options o = new Options();
        o.setTo(new EndpointReference(ENDPOINTS.get(service)));
        o.setTimeOutInMilliSeconds(60_000);
        c.setOptions(o);
        return c;
    }

    /** sendReceive with the kv operation's wsa:Action (the echo sample's calls need none). */
    static OMElement call(ServiceClient client, OMElement request) throws org.apache.axis2.AxisFault {
        return request.getNamespace() != null && request.getNamespace().getNamespaceURI().equals(EchoService.NS)
                ? BftTestGroup.call(client, request) : KvGroup.call(client, request);
    }

    BftwsNode node(String party, String service) {
        return BftwsNode.of(running.get(party + "/" + service).context());
    }

    /**
     * Execution node {@code i} of {@code service}: its state as its checkpoints digest it (echo: digest/count from
     * get_state; kv: get_state's response serialised); empty before the service's first request.
     */
    String state(String service, int i) throws Exception {
        ConfigurationContext ctx = running.get(execName(service, i) + "/" + service).context();
        AxisService axisService = ctx.getAxisConfiguration().getService(service);
        ServiceGroupContext group = ctx.getServiceGroupContext(axisService.getAxisServiceGroup().getServiceGroupName());
        ServiceContext sc = group == null ? null : group.getServiceContext(axisService);
        Object instance = sc == null ? null : sc.getProperty(ServiceContext.SERVICE_OBJECT);
        if (instance instanceof EchoService echo) {
            org.apache.axiom.om.OMFactory f = OMAbstractFactory.getOMFactory();
            OMElement s = echo.get_state(f.createOMElement("get_state", f.createOMNamespace(EchoService.NS, "e")))
                    .getFirstElement();
            return s.getAttributeValue(new QName("digest")) + "/" + s.getAttributeValue(new QName("count"));
        }
        if (instance instanceof KvService kv) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            kv.get_state(KvRequests.getState()).serialize(out);
            return out.toString(java.nio.charset.StandardCharsets.UTF_8);
        }
        return "";
    }

    /** Stops execution node {@code i} of {@code service} (a crash, as far as the others can tell). */
    void stopExecutionNode(String service, int i) throws Exception {
        running.remove(execName(service, i) + "/" + service).close();
    }

    @Override
    public void close() throws Exception {
        for (ConfigurationContext c : clients) {
            c.terminate();
        }
        for (NodeServer n : running.values()) {
            n.close();
        }
        running.clear();
    }
}
