package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.samples.echo.EchoServiceArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bftws.mar deployed as a user deploys it, into an Axis2 web application run by a servlet container (Jetty, from
 * jetty-runner, one JVM per replica): the web application's WEB-INF/lib holds Axis2's jars and the status page's
 * servlet only, nothing else of bftws (the module and every jar it needs come from WEB-INF/modules/bftws.mar and its
 * lib/); requests reach Axis2 through
 * AxisServlet, whose synchronous exchange waits for the ordered reply. The node's axis2.xml engages addressing only;
 * EchoService's services.xml engages bftws (so it is replicated) and a second service in the same archive,
 * PlainEchoService, does not (so it answers plain SOAP, without WS-RM, on the same nodes).
 */
class ModuleArchiveInServletContainerIT {

    static final Path TARGET = Path.of("target").toAbsolutePath();
    static final String PLAIN_SERVICE = "PlainEchoService";

    @TempDir
    Path dir;

    @Test
    void aMarInWebInfModulesReplicatesTheServiceThatEngagesItWhileTheNodesOtherServiceStaysPlainSoap()
            throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = new ArrayList<>();
        for (int port : p) {
            endpoints.add(EchoReplicas.endpoint(port));
        }
        List<Process> nodes = new ArrayList<>();
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "clientTimeout=\"5s\" viewChangeTimeout=\"20s\"",
                endpoints)) {
            try {
                for (int i = 0; i < 4; i++) {
                    Path webapp = webApplication(dir.resolve("replica" + i + "-webapp"));
                    nodes.add(jetty(webapp, p[i], group.replicasXml, "replica" + i, dir.resolve("replica" + i + ".log")));
                }
                for (int i = 0; i < 4; i++) {
                    awaitListening(p[i], nodes.get(i), dir.resolve("replica" + i + ".log"));
                }

                // the replicated service: ordered by PBFT, f+1 identical replies voted on by the bftws client
                ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
                for (int i = 0; i < 3; i++) {
                    assertEquals(List.of("a" + i, "b"),
                            ReplicatedEchoVotingTest.items(TestNodes.call(client, TestNodes.echo("a" + i, "b"))));
                }

                // the same node's other service: plain SOAP, no sequence, no module on the client
                ConfigurationContext plain = TestNodes.client(dir, false);
                ServiceClient plainClient = TestNodes.serviceClient(plain,
                        "http://127.0.0.1:" + p[0] + "/axis2/services/" + PLAIN_SERVICE);
                assertEquals(List.of("plain"),
                        ReplicatedEchoVotingTest.items(TestNodes.call(plainClient, TestNodes.echo("plain"))));

                // while the replicated one refuses plain SOAP, and says why (in the mac profile: no authenticator)
                ServiceClient plainToReplicated = TestNodes.serviceClient(plain, endpoints.get(0));
                AxisFault refused = assertThrows(AxisFault.class,
                        () -> TestNodes.call(plainToReplicated, TestNodes.echo("unordered")));
                assertTrue(String.valueOf(refused.getMessage()).contains("refused the message: unsigned"),
                        refused.toString());
                plain.terminate();

                // the status page (conf/web.xml's StatusServlet, the status-servlet jar in WEB-INF/lib) reads the
                // module loaded from bftws.mar: the replica's figures, its three executed echoes among them
                java.net.http.HttpResponse<String> status = java.net.http.HttpClient.newHttpClient().send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + p[1]
                                + "/axis2/bftws/status")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
                assertEquals(200, status.statusCode(), status.body());
                assertTrue(status.body().startsWith("{\"party\":\"replica1\"")
                        && status.body().contains("\"group\":\"EchoService\""), status.body());
            } finally {
                for (Process node : nodes) {
                    node.destroy();
                }
                for (Process node : nodes) {
                    node.waitFor();
                }
            }
        }
    }

    /**
     * The web application of one replica, as docs/deployment.md lays it out: WEB-INF/web.xml (conf/web.xml),
     * WEB-INF/lib (Axis2's jars: target/axis2.classpath, without the servlet API the container provides; and
     * bftws-status-servlet.jar),
     * WEB-INF/conf/axis2.xml, WEB-INF/modules (addressing.mar, bftws.mar), WEB-INF/services (the echo archive).
     */
    static Path webApplication(Path app) throws IOException {
        Path webInf = Files.createDirectories(app.resolve("WEB-INF"));
        Files.copy(Path.of("..", "conf", "web.xml"), webInf.resolve("web.xml"));
        Path lib = Files.createDirectories(webInf.resolve("lib"));
        for (String jar : Files.readString(TARGET.resolve("axis2.classpath")).trim().split(java.io.File.pathSeparator)) {
            Path source = Path.of(jar);
            if (!source.getFileName().toString().startsWith("javax.servlet-api")) {
                Files.copy(source, lib.resolve(source.getFileName()));
            }
        }
        assertFalse(Files.readString(TARGET.resolve("axis2.classpath")).contains("bftws"),
                "nothing of bftws on the node's classpath");
        // but the status page's servlet, one class that needs no other bftws class (conf/web.xml declares it)
        Files.copy(TARGET.resolve("bftws-status-servlet.jar"), lib.resolve("bftws-status-servlet.jar"));
        Path conf = Files.createDirectories(webInf.resolve("conf"));
        Files.writeString(conf.resolve("axis2.xml"), servletAxis2Xml(Files.readString(TestNodes.AXIS2_XML)));
        Path modules = Files.createDirectories(webInf.resolve("modules"));
        Files.copy(TARGET.resolve("bftws.mar"), modules.resolve("bftws.mar"));
        Files.copy(TARGET.resolve("axis2-modules").resolve("addressing.mar"), modules.resolve("addressing.mar"));
        Path services = Files.createDirectories(webInf.resolve("services"));
        Path echo = EchoServiceArchive.writeTo(Files.createDirectories(app.resolve("original")));
        engagedPerService(echo, services.resolve("EchoService.aar"));
        return app;
    }

    /**
     * conf/axis2.xml with the two changes a web application needs for per-service engagement: AxisServlet's
     * listener as the http transport receiver, and no global {@code <module ref="bftws"/>}.
     */
    static String servletAxis2Xml(String axis2Xml) {
        String global = "    <module ref=\"bftws\"/>\n";
        String receiver = "<transportReceiver name=\"http\" class=\"org.apache.axis2.transport.http.SimpleHTTPServer\">\n"
                + "        <parameter name=\"port\">6060</parameter>\n    </transportReceiver>";
        assertTrue(axis2Xml.contains(global) && axis2Xml.contains(receiver), "conf/axis2.xml changed: update this test");
        return axis2Xml.replace(global, "")
                .replace(receiver, "<transportReceiver name=\"http\" class=\"org.apache.axis2.transport.http.AxisServletListener\"/>");
    }

    /**
     * The echo archive with {@code <module ref="bftws"/>} in EchoService's services.xml entry, and a second service
     * of the same class, PlainEchoService, that does not engage it.
     */
    static void engagedPerService(Path source, Path target) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(source));
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (e.getName().equals("META-INF/services.xml")) {
                    String xml = new String(bytes, StandardCharsets.UTF_8);
                    String echo = "<service name=\"EchoService\" scope=\"application\">";
                    assertTrue(xml.contains(echo), "the echo sample's services.xml changed: update this test");
                    xml = xml.replace(echo, echo + "\n    <module ref=\"bftws\"/>")
                            .replace("</serviceGroup>", """
                                    <service name="PlainEchoService" scope="application">
                                        <parameter name="ServiceClass">org.bftws.samples.echo.EchoService</parameter>
                                        <messageReceivers>
                                            <messageReceiver mep="http://www.w3.org/ns/wsdl/in-out"
                                                class="org.apache.axis2.receivers.RawXMLINOutMessageReceiver"/>
                                        </messageReceivers>
                                        <operation name="echo">
                                            <actionMapping>http://bftws.org/samples/echo/echo</actionMapping>
                                        </operation>
                                    </service>
                                    </serviceGroup>""");
                    bytes = xml.getBytes(StandardCharsets.UTF_8);
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                out.write(bytes);
                out.closeEntry();
            }
        }
    }

    /** A replica: Jetty on 127.0.0.1 running the web application at /axis2, its bftws settings as system properties. */
    static Process jetty(Path webapp, int port, Path replicasXml, String party, Path log) throws IOException {
        ProcessBuilder b = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dbftws.replicasConfig=" + replicasXml, "-Dbftws.party=" + party,
                "-jar", TARGET.resolve("axis2-modules").resolve("jetty-runner.jar").toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port), "--path", "/axis2", webapp.toString());
        b.redirectErrorStream(true).redirectOutput(log.toFile());
        return b.start();
    }

    /** Jetty opens its connector after the web application started (AxisServlet loads on startup). */
    static void awaitListening(int port, Process node, Path log) throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!node.isAlive()) {
                throw new AssertionError("the container exited: " + Files.readString(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("the container did not listen within 90 s: " + Files.readString(log));
    }
}
