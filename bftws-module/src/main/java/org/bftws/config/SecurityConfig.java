package org.bftws.config;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Message authentication of a group.
 *
 * @param profile          none, mac or wssec
 * @param truststore       PKCS#12 file with the certificates of every node and client that may talk to the group
 * @param storePassword    password of the truststore and of the nodes' and clients' keystores
 * @param timestampTtl     a signed message whose wsu:Timestamp is older than this is refused as stale
 */
public record SecurityConfig(SecurityProfile profile, Path truststore, String storePassword, Duration timestampTtl) {

    public static SecurityConfig none() {
        return new SecurityConfig(SecurityProfile.NONE, null, null, Duration.ofMinutes(5));
    }
}
