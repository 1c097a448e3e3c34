package org.bftws.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code bftws-server replica|keygen|gateway}: every command explains itself with --help, and a command line it cannot run is
 * refused in one line with status 2, before anything starts.
 */
class ServerCommandsTest {

    @TempDir
    Path dir;

    /** What a command line printed and returned. */
    record Outcome(int status, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Cli.execute(new BftwsServer(), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void eachCommandsHelpListsEveryOneOfItsOptionsAndExitsZero() {
        CommandLine server = Cli.commandLine(new BftwsServer());
        for (String command : List.of("replica", "keygen", "gateway")) {
            Outcome help = run(command, "--help");
            assertEquals(0, help.status(), help.err());
            assertTrue(help.out().startsWith("Usage: bftws-server " + command), help.out());
            for (OptionSpec option : server.getSubcommands().get(command).getCommandSpec().options()) {
                assertTrue(help.out().contains(option.longestName()), command + " --help omits "
                        + option.longestName() + ":\n" + help.out());
            }
        }
    }

    @Test
    void theServersUsageNamesEveryCommandAndWithoutOneIsABadCommandLine() {
        Outcome help = run("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("replica") && help.out().contains("keygen") && help.out().contains("gateway"),
                help.out());
        Outcome none = run();
        assertEquals(2, none.status());
        assertTrue(none.err().contains("replica") && none.err().contains("keygen"), none.err());
    }

    @Test
    void anUnknownOptionIsRefusedInOneLineNamingItWithStatusTwo() {
        Outcome bad = run("replica", "--id", "0", "--replicas", "4");
        assertEquals(2, bad.status());
        assertEquals(2, bad.errLines().size(), bad.err());
        assertTrue(bad.errLines().get(0).startsWith("bftws-server replica: ")
                && bad.errLines().get(0).contains("--replicas"), bad.err());
        assertEquals("try 'bftws-server replica --help'", bad.errLines().get(1));
        assertEquals("", bad.out());
    }

    @Test
    void keygenWithoutTheFileAfterConfSaysSoInOneLine() {
        Outcome bad = run("keygen", "--conf");
        assertEquals(2, bad.status(), bad.err());
        assertEquals(2, bad.errLines().size(), bad.err());
        assertTrue(bad.errLines().get(0).contains("--conf") && bad.errLines().get(0).contains("FILE"), bad.err());
        assertTrue(!bad.err().contains("Exception"), bad.err());
    }

    @Test
    void keygenOnAFileThatIsNotThereFailsWithStatusOneNamingIt() {
        Outcome missing = run("keygen", "--conf", dir.resolve("nowhere.xml").toString());
        assertEquals(1, missing.status(), missing.err());
        assertTrue(missing.err().startsWith("keygen: ") && missing.err().contains("nowhere.xml"), missing.err());
    }

    @Test
    void keygenWritesTheKeysReplicasXmlAsksForAndKeepsThemTheSecondTime() throws Exception {
        Path conf = soloWithKeys("client1");
        Outcome first = run("keygen", "--conf", conf.toString());
        assertEquals(0, first.status(), first.err());
        assertTrue(Files.isRegularFile(dir.resolve("keys/solo.p12")), first.out());
        assertTrue(Files.isRegularFile(dir.resolve("keys/truststore.p12")), first.out());
        java.security.cert.Certificate solo = certificate(dir.resolve("keys/solo.p12"));
        assertEquals(0, run("keygen", "--conf", conf.toString()).status());
        assertEquals(solo, certificate(dir.resolve("keys/solo.p12")), "keygen without --force keeps solo's key");
    }

    @Test
    void keygenRevokeAddsThePartysCertificateToTheRevocationListTheTlsElementNames() throws Exception {
        Path conf = soloWithKeys("client1", "client2");
        assertEquals(0, run("keygen", "--conf", conf.toString()).status());
        Outcome first = run("keygen", "--conf", conf.toString(), "--revoke", "client1");
        assertEquals(0, first.status(), first.err());
        assertTrue(first.out().startsWith("revoked the certificate of client1") && first.out().contains("(1 revoked)"),
                first.out());
        Outcome second = run("keygen", "--conf", conf.toString(), "--revoke", "client2");
        assertTrue(second.out().contains("(2 revoked)"), "the list keeps what it named: " + second.out());
        java.security.cert.X509CRL crl;
        try (var in = Files.newInputStream(dir.resolve("keys/revoked.crl"))) {
            crl = (java.security.cert.X509CRL) java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCRL(in);
        }
        assertTrue(crl.isRevoked(certificate(dir.resolve("keys/client1.p12"), "client1")));
        assertTrue(!crl.isRevoked(certificate(dir.resolve("keys/solo.p12"), "solo")));
        Outcome unknown = run("keygen", "--conf", conf.toString(), "--revoke", "mallory");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().startsWith("keygen: ") && unknown.err().contains("mallory"), unknown.err());
    }

    @Test
    void gatewayRefusesAListenAddressThatIsNotHostColonPortInOneLine() {
        for (String listen : List.of("8080", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000")) {
            Outcome bad = run("gateway", "--listen", listen, "--party", "client1");
            assertEquals(2, bad.status(), listen + ": " + bad.err());
            assertEquals(2, bad.errLines().size(), bad.err());
            assertTrue(bad.errLines().get(0).startsWith("bftws-server gateway: --listen"), bad.err());
        }
        Outcome noParty = run("gateway", "--listen", "127.0.0.1:0");
        assertEquals(2, noParty.status());
        assertTrue(noParty.errLines().get(0).contains("--party"), noParty.err());
    }

    @Test
    void gatewayForAPartyReplicasXmlDoesNotNameFailsWithStatusOneNamingTheClients() throws Exception {
        Path conf = dir.resolve("replicas.xml");
        Files.writeString(conf, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="0">
                    <security profile="none"/>
                    <node id="0" name="solo" serviceEndpoint="http://127.0.0.1:8080/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:8080/axis2/services/BftControl"/>
                  </group>
                  <client name="client1"/>
                </replicas>
                """);
        Outcome bad = run("gateway", "--listen", "127.0.0.1:0", "--party", "mallory", "--conf", conf.toString());
        assertEquals(1, bad.status(), bad.err());
        assertTrue(bad.err().startsWith("gateway: ") && bad.err().contains("no <client name=\"mallory\">")
                && bad.err().contains("client1"), bad.err());
        Outcome missing = run("gateway", "--listen", "127.0.0.1:0", "--party", "client1", "--conf",
                dir.resolve("nowhere.xml").toString());
        assertEquals(1, missing.status());
        assertTrue(missing.err().contains("nowhere.xml does not exist"), missing.err());
    }

    /** replicas.xml of one keyed node, "solo" (profile mac), and the clients {@code clients}, in the test's directory. */
    private Path soloWithKeys(String... clients) throws java.io.IOException {
        StringBuilder parties = new StringBuilder();
        for (String c : clients) {
            parties.append("  <client name=\"").append(c).append("\"/>\n");
        }
        Path conf = dir.resolve("replicas.xml");
        Files.writeString(conf, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <keys truststore="keys/truststore.p12" storePassword="pw"/>
                  <group service="EchoService" endpoint="http://echo.bftws.group/axis2/services/EchoService" f="0">
                    <security profile="mac"/>
                    <node id="0" name="solo" serviceEndpoint="http://127.0.0.1:8080/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:8080/axis2/services/BftControl"/>
                  </group>
                """ + parties + "</replicas>\n");
        return conf;
    }

    private static java.security.cert.Certificate certificate(Path keystore) throws Exception {
        return certificate(keystore, "solo");
    }

    private static java.security.cert.X509Certificate certificate(Path keystore, String alias) throws Exception {
        java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(keystore)) {
            store.load(in, "pw".toCharArray());
        }
        return (java.security.cert.X509Certificate) store.getCertificate(alias);
    }
}
