package org.bftws.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes replicas.xml variants for tests: a valid Configuration I group unless told otherwise. */
final class ReplicasXml {
    String keys = "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>";
    String groupAttributes = "service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\""
            + " f=\"1\" configuration=\"I\"";
    String security = "<security profile=\"wssec\"/>";
    String protocol = "";
    final List<String> nodes = new ArrayList<>();
    final List<String> clients = new ArrayList<>(List.of("<client name=\"client1\"/>"));

    ReplicasXml() {
        for (int i = 0; i < 4; i++) {
            nodes.add(node(i, "replica" + i, "agree-execute", 9100 + i));
        }
    }

    static String node(int id, String name, String role, int port) {
        return "<node id=\"" + id + "\" name=\"" + name + "\" role=\"" + role + "\" serviceEndpoint=\"http://127.0.0.1:"
                + port + "/axis2/services/EchoService\" controlEndpoint=\"http://127.0.0.1:" + port
                + "/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:" + (port + 1000) + "\"/>";
    }

    String text() {
        // one element a line, so that a test can predict the line an error names
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n");
        if (!keys.isEmpty()) b.append(keys).append('\n');
        b.append("<group ").append(groupAttributes).append(">\n");
        if (!security.isEmpty()) b.append(security).append('\n');
        if (!protocol.isEmpty()) b.append(protocol).append('\n');
        nodes.forEach(n -> b.append(n).append('\n'));
        b.append("</group>\n");
        clients.forEach(c -> b.append(c).append('\n'));
        return b.append("</replicas>\n").toString();
    }

    Path writeTo(Path dir) {
        try {
            Path file = dir.resolve("replicas.xml");
            Files.writeString(file, text());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
