package org.bftws.security;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.wss4j.dom.WSConstants;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;

/** A deployment whose keys keygen wrote into a test directory, and the wssec profile of each of its parties. */
public final class Deployment {
    final Path dir;
    final Path conf;
    public final ReplicasConfig config;

    public Deployment(Path dir, String profile, int... ports) {
        this.dir = dir;
        this.conf = TestDeployment.writeConfig(dir, profile, ports);
        new KeyGenerator(ReplicasConfigReader.read(conf, KeyFileCheck.none()), false).run();
        this.config = ReplicasConfigReader.read(conf);
    }

    public WsSecurity security(String party) {
        return WsSecurity.forParty(config, party, config.groups().get(0));
    }

    /** Party {@code party} signing with a clock {@code shift} away from the true time. */
    public WsSecurity securityWithClock(String party, Duration shift) {
        char[] pw = config.keys().storePassword().toCharArray();
        return new WsSecurity(PartyKeystore.load(dir.resolve("keys/" + party + ".p12"), party, pw), pw,
                DeploymentTrust.load(config.keys().truststore(), pw), Duration.ofMinutes(5), Duration.ofMinutes(1),
                ProtectedParts.defaults(), WSConstants.BST_DIRECT_REFERENCE,
                Clock.offset(Clock.systemUTC(), shift));
    }
}
