package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine.ParameterException;

/** {@code replica}: which node it runs, and the errors that stop it before it starts. */
class ReplicaMainTest {

    @TempDir
    Path dir;

    private Path replicasXml(String profile, int port) throws IOException {
        Path file = dir.resolve("replicas.xml");
        Files.writeString(file, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <keys truststore="keys/truststore.p12" storePassword="pw"/>
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="0">
                    <security profile="%s"/>
                    <node id="0" name="solo" serviceEndpoint="http://127.0.0.1:%d/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:%d/axis2/services/BftControl"/>
                  </group>
                  <client name="client1"/>
                </replicas>
                """.formatted(profile, port, port));
        return file;
    }

    /** Runs ReplicaMain in this JVM for a command line that must fail before any node starts. */
    private String failure(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> line = new java.util.ArrayList<>(List.of(args));
        line.addAll(List.of("--services", dir.toString()));
        int status = ReplicaMain.run(ReplicaOptions.parse(line.toArray(String[]::new)), null,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anIdThatIsNotInTheGroupIsRefusedNamingTheNodesThereAre() throws Exception {
        String err = failure("--id", "3", "--conf", replicasXml("none", 8080).toString());
        assertTrue(err.contains("group EchoService has no agreement node with id 3 (ids 0..0); its nodes: solo"),
                err);
    }

    @Test
    void aMissingKeystoreIsRefusedWithTheAdviceToRunKeygen() throws Exception {
        String err = failure("--name", "solo", "--conf", replicasXml("mac", 8080).toString());
        assertTrue(err.contains("does not exist") && err.contains("keygen"), err);
    }

    @Test
    void aMissingReplicasXmlIsRefusedNamingTheFile() {
        String err = failure("--id", "0", "--conf", dir.resolve("nowhere.xml").toString());
        assertTrue(err.contains("nowhere.xml does not exist"), err);
    }

    @Test
    void theNodeRunsOnAxis2sOwnServerUnlessAServletContainerIsChosen() {
        assertEquals(NodeContainer.SIMPLE, ReplicaOptions.parse("--id", "0", "--services", ".").container());
        assertEquals(NodeContainer.JETTY,
                ReplicaOptions.parse("--id", "0", "--services", ".", "--container", "jetty").container());
        ParameterException e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--id", "0",
                "--services", ".", "--container", "tomcat"));
        assertTrue(e.getMessage().contains("--container must be one of simple, jetty"), e.getMessage());
    }

    @Test
    void theCommandLineMustNameExactlyOneNode() {
        ParameterException e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--conf", "x.xml",
                "--services", "."));
        assertTrue(e.getMessage().contains("--id I") && e.getMessage().contains("--name NAME"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--id", "0", "--name", "a",
                "--services", "."));
        assertTrue(e.getMessage().contains("mutually exclusive"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--id", "zero", "--services", "."));
        assertTrue(e.getMessage().contains("--id") && e.getMessage().contains("zero"), e.getMessage());
        e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--id", "-1", "--services", "."));
        assertEquals("--id must be between 0 and 10000, not -1", e.getMessage());
    }

    @Test
    void anAgreementNodeOfSeveralServicesServesEachOnItsOwnPortUnlessGroupPicksOne() throws Exception {
        StringBuilder x = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n<agreementGroup f=\"1\">\n");
        int port = 18100;
        for (String service : List.of("EchoService", "KvService")) {
            x.append("<service name=\"").append(service).append("\" endpoint=\"http://").append(service)
                    .append(".bftws.group/axis2/services/").append(service).append("\">\n");
            for (int i = 0; i < 7; i++, port++) {
                String name = i < 4 ? "agree" + i : service + "-exec" + (i - 4);
                String base = "http://127.0.0.1:" + port + "/axis2/services/";
                x.append("<node id=\"").append(i < 4 ? i : i - 4).append("\" name=\"").append(name)
                        .append("\" role=\"").append(i < 4 ? "agree" : "execute").append("\" serviceEndpoint=\"")
                        .append(base).append(service).append("\" controlEndpoint=\"").append(base)
                        .append("BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(port + 1000).append("\"/>\n");
            }
            x.append("</service>\n");
        }
        Path file = Files.writeString(dir.resolve("shared.xml"), x.append("</agreementGroup>\n</replicas>\n"));
        List<ReplicaNode> both = ReplicaNode.selectAll(ReplicaOptions.parse("--name", "agree1", "--conf",
                file.toString(), "--services", "."));
        assertEquals(List.of("EchoService", "KvService"), both.stream().map(n -> n.group().service()).toList());
        assertEquals(List.of(18101, 18108), both.stream().map(ReplicaNode::port).toList());
        List<ReplicaNode> kv = ReplicaNode.selectAll(ReplicaOptions.parse("--name", "agree1", "--group", "KvService",
                "--conf", file.toString(), "--services", "."));
        assertEquals(List.of(18108), kv.stream().map(ReplicaNode::port).toList());
        assertEquals("KvService", ReplicaNode.select(ReplicaOptions.parse("--name", "KvService-exec2", "--conf",
                file.toString(), "--services", ".")).group().service());
    }

    /** A service archive named {@code file} holding only {@code servicesXml} as META-INF/services.xml. */
    private Path archive(String file, String servicesXml) throws IOException {
        Path aar = dir.resolve(file);
        try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(aar))) {
            zip.putNextEntry(new java.util.zip.ZipEntry("META-INF/services.xml"));
            zip.write(servicesXml.getBytes(StandardCharsets.UTF_8));
            zip.closeEntry();
        }
        return aar;
    }

    /** Runs the node of a replicas.xml on a free port with the archives in {@code dir}; returns [status, out, err]. */
    private String[] runWithArchives() throws IOException {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path conf = replicasXml("none", port);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ReplicaMain.run(ReplicaOptions.parse("--id", "0", "--conf", conf.toString(), "--services",
                        dir.toString(), "--run-dir", dir.resolve("run").toString()), null,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    /** A services.xml of one service {@code name} whose in-out operations {@code receiver} serves. */
    private static String services(String name, String receiver) {
        return """
                <service name="%s" scope="application">
                  <parameter name="ServiceClass">java.lang.Object</parameter>
                  <messageReceivers>
                    <messageReceiver mep="http://www.w3.org/ns/wsdl/in-out" class="%s"/>
                  </messageReceivers>
                  <operation name="echo"/>
                </service>
                """.formatted(name, receiver);
    }

    /** Runs the node on the archives made so far; it must exit with status 1 without saying ready. */
    private String[] notReady() throws Exception {
        String[] run = runWithArchives();
        assertEquals("1", run[0], run[2]);
        assertTrue(!run[1].contains("ready"), run[1]);
        return run;
    }

    @Test
    void aServiceArchiveThatFailsToDeployKeepsTheNodeFromReportingReadyAndSaysWhyOnOneLine() throws Exception {
        archive("EchoService.aar", services("EchoService", "org.example.NoSuchReceiver"));
        String[] run = notReady();
        List<String> lines = run[2].lines().filter(l -> l.startsWith("replica: solo failed to start")).toList();
        assertEquals(1, lines.size(), run[2]);
        assertTrue(lines.get(0).contains("service archive EchoService.aar did not deploy")
                && lines.get(0).contains("org.example.NoSuchReceiver"), lines.get(0));
    }

    @Test
    void aNodeWhoseArchivesLackItsGroupsServiceIsNotReadyAndNamesTheService() throws Exception {
        archive("Other.aar", services("OtherService", "org.apache.axis2.receivers.RawXMLINOutMessageReceiver"));
        String[] run = notReady();
        assertTrue(run[2].contains("replica: solo failed to start: the replicated service EchoService is not deployed"),
                run[2]);
    }

    /**
     * Configuration II's agreement-only node replica3 (f=1, profile none), on free ports, run in this JVM with
     * {@code args} and {@code sample} until it answered 'stats' from standard input and stopped; returns [status,
     * out, err].
     */
    private String[] runAgreementOnlyNode(SampleService sample, String... args) throws IOException {
        StringBuilder x = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n<group service=\"EchoService\""
                + " endpoint=\"http://echo.bftws.group/axis2/services/EchoService\" f=\"1\" configuration=\"II\">\n"
                + "<security profile=\"none\"/>\n");
        List<Integer> ports = freePorts(8);
        for (int i = 0; i < 4; i++) {
            String base = "http://127.0.0.1:" + ports.get(i) + "/axis2/services/";
            x.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" role=\"")
                    .append(i < 3 ? "agree-execute" : "agree").append("\" serviceEndpoint=\"").append(base)
                    .append("EchoService\" controlEndpoint=\"").append(base).append("BftControl\" channelEndpoint=\"tcp://")
                    .append("127.0.0.1:").append(ports.get(4 + i)).append("\"/>\n");
        }
        Path conf = Files.writeString(dir.resolve("configuration-ii.xml"), x.append("</group>\n<client name=\"client1\"/>\n"
                + "</replicas>\n"));
        List<String> line = new java.util.ArrayList<>(List.of("--name", "replica3", "--conf", conf.toString(),
                "--run-dir", dir.resolve("replica3").toString()));
        line.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.io.InputStream stdin = System.in;
        System.setIn(new java.io.ByteArrayInputStream("stats\nstop\n".getBytes(StandardCharsets.UTF_8)));
        try {
            int status = ReplicaMain.run(Cli.parse(new ReplicaCommand(sample), line.toArray(String[]::new)).options(), sample,
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
                    err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setIn(stdin);
        }
    }

    /** {@code n} distinct loopback ports free a moment ago (all held open at once, so none comes twice). */
    private static List<Integer> freePorts(int n) throws IOException {
        List<java.net.ServerSocket> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                held.add(new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()));
            }
            return held.stream().map(java.net.ServerSocket::getLocalPort).toList();
        } finally {
            for (java.net.ServerSocket s : held) {
                s.close();
            }
        }
    }

    /** The echo sample, as the checkout's launcher deploys it on a replica started without --services. */
    private static final SampleService ECHO_SAMPLE = new SampleService() {
        @Override
        public void writeArchives(Path servicesDirectory) throws IOException {
            org.bftws.samples.echo.EchoServiceArchive.writeTo(servicesDirectory);
        }

        @Override
        public java.util.Map<String, StateQuery> queries() {
            return java.util.Map.of();
        }
    };

    /**
     * An agreement-only node orders its group's requests through the module's stand-in of the service and runs no
     * archive of it: one would be a second service of that name, which Axis2 refuses to deploy (the testbed's
     * --config II and III failed so). Neither the launcher's sample nor the archives of --services are deployed there.
     */
    @Test
    void anAgreementOnlyNodeDeploysNoServiceArchiveAndStartsWithTheModulesStandIn() throws Exception {
        String[] sample = runAgreementOnlyNode(ECHO_SAMPLE);
        assertEquals("0", sample[0], sample[2]);
        assertTrue(sample[1].startsWith("ready replica3 "), sample[1]);
        assertTrue(sample[1].contains("stats replica3 delivered=0 "), sample[1]);
        Path services = dir.resolve("replica3").resolve("repository").resolve("services");
        try (java.util.stream.Stream<Path> archives = Files.list(services)) {
            assertEquals(List.of(), archives.toList());
        }

        Path archives = Files.createDirectories(dir.resolve("archives"));
        org.bftws.samples.echo.EchoServiceArchive.writeTo(archives);
        String[] given = runAgreementOnlyNode(null, "--services", archives.toString());
        assertEquals("0", given[0], given[2]);
        assertTrue(given[1].startsWith("ready replica3 "), given[1]);
        assertTrue(given[2].contains("replica: note: replica3 orders EchoService without executing it: the archives of "
                + "--services " + archives + " are not deployed"), given[2]);
    }

    @Test
    void theProductsReplicaDeploysTheArchivesItIsGivenAndHasNoDefaultService() {
        assertEquals(dir, ReplicaOptions.parse("--id", "0", "--services", dir.toString()).services());
        ParameterException e = assertThrows(ParameterException.class, () -> ReplicaOptions.parse("--id", "0"));
        assertEquals("say which service archives to deploy with --services DIR", e.getMessage());
    }
}
