package org.bftws.config;

import java.util.Optional;

/**
 * Which key files {@link ReplicasConfigReader} insists on when a group's profile needs keys. A replica on its own
 * host holds only its own keystore and the truststore, the testbed holds them all, and keygen creates them.
 */
public final class KeyFileCheck {
    private static final KeyFileCheck ALL = new KeyFileCheck(true, null);
    private static final KeyFileCheck NONE = new KeyFileCheck(false, null);

    private final boolean checks;
    private final String party;

    private KeyFileCheck(boolean checks, String party) {
        this.checks = checks;
        this.party = party;
    }

    /** The truststore and every node's and client's keystore (one machine runs everything, e.g. the testbed). */
    public static KeyFileCheck all() { return ALL; }

    /** Nothing: for keygen, which is about to write them. */
    public static KeyFileCheck none() { return NONE; }

    /** The truststore and the keystore of the node or client called {@code name}, the one this process runs as. */
    public static KeyFileCheck forParty(String name) { return new KeyFileCheck(true, name); }

    boolean checksAnything() { return checks; }

    boolean checksKeystoreOf(String name) {
        return checks && (party == null || party.equalsIgnoreCase(name));
    }

    Optional<String> party() { return Optional.ofNullable(party); }
}
