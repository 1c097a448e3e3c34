package org.bftws.axis2.security;

import org.bftws.security.Deployment;
import org.bftws.security.TestEcho;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.namespace.QName;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.receivers.RawXMLINOutMessageReceiver;
import org.apache.axis2.transport.http.SimpleHTTPServer;
import org.apache.axis2.util.Utils;

/** An Axis2 HTTP server on a free loopback port with the bftws module engaged and TestEcho deployed as EchoService. */
public final class SecuredAxis2Node implements AutoCloseable {
    public final ConfigurationContext context;
    final SimpleHTTPServer server;
    final int port;

    private SecuredAxis2Node(ConfigurationContext context, SimpleHTTPServer server, int port) {
        this.context = context;
        this.server = server;
        this.port = port;
    }

    /** Starts the node as party {@code party} of {@code deployment}, listening on {@code port}. */
    public static SecuredAxis2Node start(Deployment deployment, String party, int port, Path repository) throws Exception {
        prepareRepository(repository);
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), axis2Xml());
        ctx.getAxisConfiguration().addService(Utils.createSimpleService(new QName("EchoService"),
                new RawXMLINOutMessageReceiver(), TestEcho.class.getName(), new QName("echo")));
        ctx.getAxisConfiguration().engageModule("addressing");
        ctx.getAxisConfiguration().engageModule("bftws");
        SecurityRuntime.install(ctx, new SecurityRuntime(deployment.config, party));
        SimpleHTTPServer server = new SimpleHTTPServer(ctx, port);
        server.start();
        return new SecuredAxis2Node(ctx, server, port);
    }

    /** An Axis2 repository directory with the addressing module (copied to target/axis2-modules by the build). */
    public static Path prepareRepository(Path repository) throws IOException {
        Path modules = Files.createDirectories(repository.resolve("modules"));
        Files.copy(Path.of("target/axis2-modules/addressing.mar"), modules.resolve("addressing.mar"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return repository;
    }

    /** The test axis2.xml: the phases of a BFT-WS node, no deployers beyond services. */
    public static String axis2Xml() throws java.net.URISyntaxException {
        return Path.of(SecuredAxis2Node.class.getResource("/axis2-secured.xml").toURI()).toString();
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port + "/axis2/services/EchoService";
    }

    public SecurityRuntime runtime() {
        return SecurityRuntime.of(context);
    }

    /** POSTs {@code envelope} as SOAP 1.1 and returns the status and body of the answer. */
    public HttpAnswer post(String envelope) throws IOException {
        return post(envelope, "urn:echo");
    }

    /** POSTs {@code envelope} as SOAP 1.1 with {@code soapAction} and returns the status and body of the answer. */
    public HttpAnswer post(String envelope, String soapAction) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(endpoint()).openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(10000);
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "text/xml; charset=UTF-8");
        c.setRequestProperty("SOAPAction", "\"" + soapAction + "\"");
        c.getOutputStream().write(envelope.getBytes(StandardCharsets.UTF_8));
        int status = c.getResponseCode();
        try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
            return new HttpAnswer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            c.disconnect();
        }
    }

    public record HttpAnswer(int status, String body) {
    }

    @Override
    public void close() throws Exception {
        server.stop();
        context.terminate();
    }
}
