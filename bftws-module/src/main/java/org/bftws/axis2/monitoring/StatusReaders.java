package org.bftws.axis2.monitoring;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import org.bftws.config.ReplicasConfig;

/**
 * Who may read a node's status page: the bftws setting {@code statusReaders} (axis2.xml's moduleConfig, or
 * {@code -Dbftws.statusReaders}) names parties of replicas.xml, and only a request over HTTPS whose client certificate
 * (from the deployment CA, as every certificate the node accepts) names one of them is answered; any other gets 403.
 * Without the setting, whoever reaches the node reads it (over HTTPS with {@code <tls clientCertificates="required">}:
 * any party of the deployment).
 */
public final class StatusReaders implements Predicate<String> {
    /** The bftws module setting. */
    public static final String SETTING = "statusReaders";

    /** The party the client certificate of the connection this thread serves names (the node's own server). */
    private static final ThreadLocal<String> CONNECTION_PARTY = new ThreadLocal<>();

    private final Set<String> parties;

    private StatusReaders(Set<String> parties) {
        this.parties = parties;
    }

    /**
     * The readers {@code setting} names (comma or space separated), null when it is empty or absent (everybody reads);
     * IllegalArgumentException when it names a party {@code config} does not have, or the deployment runs no TLS (no
     * request could then say who sends it).
     */
    public static StatusReaders parse(String setting, ReplicasConfig config) {
        if (setting == null || setting.isBlank()) {
            return null;
        }
        Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        names.addAll(Arrays.stream(setting.trim().split("[\\s,]+")).filter(s -> !s.isEmpty()).toList());
        if (!config.tlsOn()) {
            throw new IllegalArgumentException("the setting " + SETTING + " needs replicas.xml's <tls>: the status page"
                    + " knows its readers by their TLS client certificates");
        }
        for (String n : names) {
            if (config.partyNames().stream().noneMatch(p -> p.equalsIgnoreCase(n))) {
                throw new IllegalArgumentException("the setting " + SETTING + " names " + n + ", which is no node or"
                        + " client of replicas.xml; its parties: " + String.join(", ", config.partyNames()));
            }
        }
        return new StatusReaders(Set.copyOf(names));
    }

    /** Whether {@code party} (a client certificate's name; null: no certificate) may read the page. */
    @Override
    public boolean test(String party) {
        return party != null && parties.stream().anyMatch(p -> p.equalsIgnoreCase(party));
    }

    /** The node's own server runs {@code work} for a connection whose client certificate names {@code party}. */
    public static void asConnectionOf(String party, IoWork work) throws java.io.IOException {
        CONNECTION_PARTY.set(party);
        try {
            work.run();
        } finally {
            CONNECTION_PARTY.remove();
        }
    }

    /** What the node's own server does on a connection. */
    @FunctionalInterface
    public interface IoWork {
        void run() throws java.io.IOException;
    }

    /** The party of the connection this thread serves on the node's own server, or null. */
    static String connectionParty() {
        return CONNECTION_PARTY.get();
    }

    @Override
    public String toString() {
        return String.join(", ", parties);
    }
}
