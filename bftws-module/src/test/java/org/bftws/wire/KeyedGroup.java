package org.bftws.wire;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.KeyGenerator;
import org.bftws.security.PartyKeystore;
import org.bftws.security.RelayedRequestVerifier;
import org.bftws.security.WsSecurity;

/**
 * A real four-node group (f=1, replica0..replica3) and a client, with keys written by keygen into a test directory:
 * RSA keys and CA-issued certificates, Ed25519 proof keys, pairwise HMAC keys, a truststore.
 */
public final class KeyedGroup {
    public final Path dir;
    public final ReplicasConfig config;
    public final GroupConfig group;
    public final NodeDirectory nodes;
    private final char[] password;

    /** @param ports the nodes' HTTP ports (both endpoints of node i on ports[i]); 9100.. when none are given */
    public KeyedGroup(Path dir, String profile, String service, int... ports) {
        this.dir = dir;
        Path conf = writeConfig(dir, profile, service, ports);
        new KeyGenerator(ReplicasConfigReader.read(conf, KeyFileCheck.none()), false).run();
        this.config = ReplicasConfigReader.read(conf);
        this.group = config.groups().get(0);
        this.nodes = NodeDirectory.of(group);
        this.password = config.keys().storePassword().toCharArray();
    }

    public PartyKeystore keys(String party) {
        return PartyKeystore.load(dir.resolve("keys/" + party + ".p12"), party, password);
    }

    public MessageSigner signer(int node) {
        return MessageSigner.forNode(keys(nodes.name(node)), nodes);
    }

    public DeploymentTrust trust() {
        return DeploymentTrust.load(config.keys().truststore(), password);
    }

    public WsSecurity wsSecurity(String party) {
        return WsSecurity.forParty(config, party, group);
    }

    public ProofVerifier verifier(SignatureCache cache) {
        return new ProofVerifier(nodes, trust(), cache, RelayedRequestVerifier.forGroup(config, group));
    }

    public static String controlPath() {
        return "/axis2/services/BftControl";
    }

    private static Path writeConfig(Path dir, String profile, String service, int... ports) {
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<replicas xmlns=\"urn:bftws:replicas:1\">\n"
                + "<keys truststore=\"keys/truststore.p12\" storePassword=\"pw\"/>\n"
                + "<group service=\"" + service + "\" endpoint=\"http://group.bftws.test/axis2/services/" + service
                + "\" f=\"1\">\n<security profile=\"" + profile + "\"/>\n");
        for (int i = 0; i < 4; i++) {
            int port = ports.length > i ? ports[i] : 9100 + i;
            b.append("<node id=\"").append(i).append("\" name=\"replica").append(i)
                    .append("\" serviceEndpoint=\"http://127.0.0.1:").append(port).append("/axis2/services/")
                    .append(service).append("\" controlEndpoint=\"http://127.0.0.1:").append(port)
                    .append(controlPath()).append("\" channelEndpoint=\"tcp://127.0.0.1:").append(port + 1000)
                    .append("\"/>\n");
        }
        b.append("</group>\n<client name=\"client1\"/>\n</replicas>\n");
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve("replicas.xml");
            Files.writeString(file, b);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
