package org.bftws.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A four-replica EchoService deployment with one client, written to a test's directory. */
final class TestDeployment {
    private TestDeployment() {
    }

    /** replicas.xml with nodes on {@code ports} (one per replica; 9100.. when none are given). */
    static Path writeConfig(Path dir, String profile, int... ports) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\" f=\"1\">\n"
                + "<security profile=\"" + profile + "\" timestampTtl=\"5m\" clockSkew=\"1m\"/>\n");
        for (int i = 0; i < 4; i++) {
            int port = ports.length > i ? ports[i] : 9100 + i;
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"http://127.0.0.1:").append(port)
                    .append("/axis2/services/EchoService\" controlEndpoint=\"http://127.0.0.1:").append(port)
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(port + 1000)
                    .append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        try {
            Path file = dir.resolve("replicas.xml");
            Files.writeString(file, b);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
