package org.bftws.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With {@code <tls>} every node serves HTTPS only, so replicas.xml must give it https:// endpoints. */
class TlsEndpointsTest {
    @TempDir
    Path dir;

    private Path write(String scheme) throws IOException {
        StringBuilder b = new StringBuilder("<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n<tls/>\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\""
                + " f=\"1\" replicaChannel=\"soap\">\n<security profile=\"mac\"/>\n");
        for (int i = 0; i < 4; i++) {
            String base = (i == 2 ? scheme : "https") + "://127.0.0.1:" + (9100 + i) + "/axis2/services/";
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i).append("\" serviceEndpoint=\"")
                    .append(base).append("EchoService\" controlEndpoint=\"").append(base).append("BftControl\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        return Files.writeString(dir.resolve("replicas.xml"), b);
    }

    @Test
    void httpsEndpointsAreReadWithTlsOn() throws IOException {
        ReplicasConfig config = ReplicasConfigReader.read(write("https"), KeyFileCheck.none());
        assertTrue(config.tlsOn());
        assertEquals(TlsConfig.defaults(), config.tls());
    }

    @Test
    void aNodeWithAnHttpEndpointIsRefusedNamingItAndWhatToWrite() throws IOException {
        ConfigException e = assertThrows(ConfigException.class,
                () -> ReplicasConfigReader.read(write("http"), KeyFileCheck.none()));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertTrue(e.problems().get(0).startsWith("replicas.xml:8: <node name=\"replica2\"> has endpoint "
                + "http://127.0.0.1:9102/axis2/services/EchoService, but replicas.xml has <tls>, so every node serves"
                + " HTTPS only: write it with https://"), e.problems().get(0));
    }
}
