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
 * @param clockSkew        a signed message whose wsu:Timestamp was created further than this in the future is refused
 */
public record SecurityConfig(SecurityProfile profile, Path truststore, String storePassword, Duration timestampTtl,
                             Duration clockSkew) {

    public static final Duration DEFAULT_TIMESTAMP_TTL = Duration.ofMinutes(5);
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

    /** The same with the default clock skew. */
    public SecurityConfig(SecurityProfile profile, Path truststore, String storePassword, Duration timestampTtl) {
        this(profile, truststore, storePassword, timestampTtl, DEFAULT_CLOCK_SKEW);
    }

    public static SecurityConfig none() {
        return new SecurityConfig(SecurityProfile.NONE, null, null, DEFAULT_TIMESTAMP_TTL, DEFAULT_CLOCK_SKEW);
    }

    /** True when messages carry signatures or MACs, so keys and a truststore are needed. */
    public boolean needsKeys() {
        return profile != SecurityProfile.NONE;
    }
}
