package org.bftws.axis2.ordering;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

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
import org.bftws.samples.kv.KvRequests;
import org.bftws.samples.kv.KvService;
import org.bftws.samples.kv.KvServiceArchive;
import org.bftws.security.KeyGenerator;

/**
 * Four replicas of the key-value sample in one JVM (Configuration I, f=1), as a deployment runs them: each an Axis2
 * node with its own repository (addressing and KvService.aar) and conf/axis2.xml naming its party, PBFT between them
 * on the binary channel over loopback, and clients of their own calling the group endpoint. Closing it stops every
 * node it started.
 */
final class KvGroup implements AutoCloseable {

    static final String GROUP_ENDPOINT = "http://kv.bftws.group/axis2/services/KvService";
    private static final int N = 4;

    private final Path dir;
    private final Path replicasXml;
    private final NodeServer[] nodes = new NodeServer[N];
    private final int[] ports;
    private final List<ConfigurationContext> clients = new ArrayList<>();

    private KvGroup(Path dir, Path replicasXml, int[] ports) {
        this.dir = dir;
        this.replicasXml = replicasXml;
        this.ports = ports;
    }

    /** Starts the four replicas with security {@code profile} and a {@code <protocol>} element. */
    static KvGroup start(Path dir, String profile, String protocol) throws Exception {
        int[] ports = NodeServer.freePorts(2 * N); // HTTP, then the binary channels
        StringBuilder x = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"KvService\" endpoint=\"" + GROUP_ENDPOINT + "\" f=\"1\">\n"
                + "<security profile=\"" + profile + "\"/>\n" + protocol + "\n");
        for (int i = 0; i < N; i++) {
            String base = "http://127.0.0.1:" + ports[i] + "/axis2/services/";
            x.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"").append(base).append("KvService\" controlEndpoint=\"").append(base)
                    .append("BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(ports[N + i]).append("\"/>\n");
        }
        x.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        Files.createDirectories(dir);
        Path xml = Files.writeString(dir.resolve("replicas.xml"), x);
        if (!"none".equals(profile)) {
            new KeyGenerator(ReplicasConfigReader.read(xml, KeyFileCheck.none()), false).run();
        }
        KvGroup g = new KvGroup(dir, xml, ports);
        try {
            for (int i = 0; i < N; i++) {
                g.startNode(i);
            }
        } catch (Exception e) {
            g.close();
            throw e;
        }
        return g;
    }

    private void startNode(int i) throws Exception {
        Path repo = dir.resolve("replica" + i);
        if (!Files.exists(repo.resolve("services").resolve("KvService.aar"))) {
            Path modules = Files.createDirectories(repo.resolve("modules"));
            Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                    StandardCopyOption.REPLACE_EXISTING);
            KvServiceArchive.writeTo(repo.resolve("services"));
        }
        nodes[i] = NodeServer.start(repo, axis2Xml("replica" + i), ports[i]);
        for (int t = 0; t < 500 && node(i).replica() == null; t++) {
            Thread.sleep(20);
        }
        if (node(i).replica() == null) {
            throw new IllegalStateException("replica" + i + " did not start its replica role");
        }
    }

    /** conf/axis2.xml with the bftws module pointed at replicas.xml and this party's name. */
    private Path axis2Xml(String party) throws Exception {
        String xml = Files.readString(BftTestGroup.AXIS2_XML).replace("<module ref=\"bftws\"/>",
                "<module ref=\"bftws\"/>\n<moduleConfig name=\"bftws\"><parameter name=\"replicasConfig\">"
                        + replicasXml + "</parameter><parameter name=\"party\">" + party + "</parameter>"
                        + "</moduleConfig>");
        return Files.writeString(dir.resolve("axis2-" + party + ".xml"), xml);
    }

    /** A ServiceClient of client1 on an engine of its own, addressed to the group endpoint. */
    ServiceClient client() throws Exception {
        Path repo = dir.resolve("client" + clients.size());
        Files.createDirectories(repo.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"),
                repo.resolve("modules").resolve("addressing.mar"), StandardCopyOption.REPLACE_EXISTING);
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repo.toString(), axis2Xml("client1").toString());
        clients.add(ctx);
        ServiceClient c = new ServiceClient(ctx, null);
        Options o = new Options();
        o.setTo(new EndpointReference(GROUP_ENDPOINT));
        o.setTimeOutInMilliSeconds(60_000);
        c.setOptions(o);
        return c;
    }

    /** sendReceive with the operation's wsa:Action, as a WSDL-generated client would send it. */
    static OMElement call(ServiceClient client, OMElement request) throws org.apache.axis2.AxisFault {
        client.getOptions().setAction(KvRequests.action(request));
        OMElement reply = client.sendReceive(request);
        reply.build();
        return reply;
    }

    /**
     * Replica {@code i}'s state: its own KvService instance's {@code get_state} response serialised, the bytes its
     * checkpoints digest; empty before the service's first request.
     */
    byte[] state(int i) throws Exception {
        ConfigurationContext ctx = nodes[i].context();
        AxisService service = ctx.getAxisConfiguration().getService("KvService");
        ServiceGroupContext group = ctx.getServiceGroupContext(service.getAxisServiceGroup().getServiceGroupName());
        ServiceContext sc = group == null ? null : group.getServiceContext(service);
        Object instance = sc == null ? null : sc.getProperty(ServiceContext.SERVICE_OBJECT);
        if (!(instance instanceof KvService kv)) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        kv.get_state(KvRequests.getState()).serialize(out);
        return out.toByteArray();
    }

    /** Replica {@code i}'s HTTP port (its services and its status page). */
    int port(int i) {
        return ports[i];
    }

    /** Replica {@code i}'s repository (its {@code services/} holds the archive it deploys when it starts). */
    Path repository(int i) {
        return dir.resolve("replica" + i);
    }

    BftwsNode node(int i) {
        return BftwsNode.of(nodes[i].context());
    }

    /** Stops replica {@code i} (a crash, as far as the others can tell); it keeps nothing (no data directory). */
    void stop(int i) throws Exception {
        nodes[i].close();
        nodes[i] = null;
    }

    /** Starts replica {@code i} again, empty, on its port: it must catch up by state transfer. */
    void restart(int i) throws Exception {
        startNode(i);
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
