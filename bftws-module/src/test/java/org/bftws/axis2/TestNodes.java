package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
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
import org.bftws.samples.echo.EchoService;
import org.bftws.samples.echo.EchoServiceArchive;

/**
 * Real Axis2 nodes for the tests: a repository with the echo sample and the addressing module, conf/axis2.xml
 * (which engages addressing and bftws; bftws itself is found on the classpath through its META-INF/module.xml).
 */
public final class TestNodes {

    static final Path AXIS2_XML = Path.of("..", "conf", "axis2.xml").toAbsolutePath().normalize();
    static final Path PLAIN_AXIS2_XML = Path.of("src", "test", "resources", "axis2-plain.xml").toAbsolutePath();
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");

    private TestNodes() {
    }

    /** A repository with the addressing module and, when {@code withEcho}, the echo service. */
    static Path repository(Path dir, boolean withEcho) throws IOException {
        Path modules = Files.createDirectories(dir.resolve("modules"));
        Files.copy(Path.of("target", "axis2-modules", "addressing.mar"), modules.resolve("addressing.mar"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("services"));
        if (withEcho) {
            EchoServiceArchive.writeTo(dir.resolve("services"));
        }
        return dir;
    }

    static NodeServer echoNode(Path dir) throws IOException {
        return NodeServer.start(repository(dir.resolve("server"), true), AXIS2_XML, 0);
    }

    /** A client configuration with the bftws module engaged (or a plain one). */
    static ConfigurationContext client(Path dir, boolean bftws) throws Exception {
        return ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository(dir.resolve(bftws ? "client" : "plain-client"), false).toString(),
                (bftws ? AXIS2_XML : PLAIN_AXIS2_XML).toString());
    }

    static ServiceClient serviceClient(ConfigurationContext ctx, String address) throws Exception {
        ServiceClient c = new ServiceClient(ctx, null);
        Options o = new Options();
        o.setTo(new EndpointReference(address));
        o.setTimeOutInMilliSeconds(20_000);
        c.setOptions(o);
        return c;
    }

    /** sendReceive with the operation's wsa:Action, as a WSDL-generated client would send it. */
    public static OMElement call(ServiceClient client, OMElement request) throws org.apache.axis2.AxisFault {
        client.getOptions().setAction(EchoService.NS + "/" + request.getLocalName());
        OMElement reply = client.sendReceive(request);
        reply.build();
        return reply;
    }

    public static OMElement append(String value) {
        OMElement e = F.createOMElement("append", E);
        F.createOMElement("value", E, e).setText(value);
        return e;
    }

    public static OMElement echo(String... items) {
        OMElement e = F.createOMElement("echo", E);
        for (String i : items) {
            F.createOMElement("item", E, e).setText(i);
        }
        return e;
    }

    static OMElement getState() {
        return F.createOMElement("get_state", E);
    }

    public static String child(OMElement parent, String name) {
        return parent.getFirstChildWithName(new QName(EchoService.NS, name)).getText();
    }

    static List<String> entries(OMElement getStateResponse) {
        List<String> out = new ArrayList<>();
        OMElement state = getStateResponse.getFirstElement();
        for (Iterator<OMElement> it = state.getChildrenWithName(new QName(EchoService.NS, "entry")); it.hasNext(); ) {
            out.add(it.next().getText());
        }
        return out;
    }
}
