package org.bftws.wire.costs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.security.KeyGenerator;

/** A four-replica deployment with one client and real keys (keygen) in a temporary directory. */
final class CostDeployment {
    private CostDeployment() {
    }

    static ReplicasConfig create(Path dir) throws IOException {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"costs\"/>\n"
                + "<group service=\"EchoService\" endpoint=\"http://echo.bftws.group/axis2/services/EchoService\""
                + " f=\"1\">\n<security profile=\"mac\"/>\n");
        for (int i = 0; i < 4; i++) {
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"http://127.0.0.1:").append(9300 + i)
                    .append("/axis2/services/EchoService\" controlEndpoint=\"http://127.0.0.1:").append(9300 + i)
                    .append("/axis2/services/BftControl\" channelEndpoint=\"tcp://127.0.0.1:").append(9400 + i)
                    .append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        Path conf = dir.resolve("replicas.xml");
        Files.writeString(conf, b);
        new KeyGenerator(ReplicasConfigReader.read(conf, KeyFileCheck.none()), false).run();
        return ReplicasConfigReader.read(conf);
    }
}
