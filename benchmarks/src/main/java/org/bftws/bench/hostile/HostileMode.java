package org.bftws.bench.hostile;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What the testbed's hostile client sends ({@code ./bftws testbed --hostile MODE}, docs/byzantine-testing.md,
 * "Hostile clients"). The first five are echo requests of a client of the deployment, through the bftws module (so
 * each carries real HMACs under its own keys, WS-RM numbering and the module's retransmissions), whose
 * {@code mac:RequestAuthenticator} a handler after the module's Security phase then spoils ({@link #VALID}, the
 * control, leaves it as it is); the last two are sent
 * without a valid request behind them. A testing tool, never part of the product.
 */
public enum HostileMode {

    /** The control: the same client and pacing with its requests left valid (what the attack is measured against). */
    VALID("its requests left as the module signed them: the control run, the same load from a client that behaves"),
    /** Every mac:Entry replaced by other bytes of the same length: no replica can verify the request. */
    INVALID("every mac:Entry of its requests replaced by other bytes of the same length (valid nowhere)"),
    /** The entry of the view-0 primary left valid, the backups' spoilt (WebBFT's MAC attack). */
    PRIMARY_ONLY("its requests' mac:Entry valid for the view-0 primary replica0 only, spoilt for the backups"),
    /** The entries of the backups left valid, the primary's spoilt. */
    BACKUPS_ONLY("its requests' mac:Entry valid at the backups, spoilt for the view-0 primary replica0"),
    /** No request authenticator at all. */
    NO_HEADER("its requests without the mac:RequestAuthenticator header"),
    /** HTTP POSTs to every replica's service whose bodies are not SOAP, or not XML at all. */
    GARBAGE("HTTP POSTs to every replica whose bodies are not SOAP (random bytes, text, truncated or foreign XML)"),
    /** Validly authenticated CreateSequence messages, each for a new sequence, nothing sent on them. */
    CREATE_FLOOD("authentic CreateSequence messages, each opening a new sequence that is never used");

    private final String description;

    HostileMode(String description) {
        this.description = description;
    }

    /** The option value: {@code invalid}, {@code primary-only}... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** What the hostile client sends, for the usage and the report. */
    public String description() {
        return description;
    }

    /** Whether the mode spoils the request authenticator of requests the module signed ({@link Corruption}). */
    public boolean spoilsAuthenticators() {
        return this == INVALID || this == PRIMARY_ONLY || this == BACKUPS_ONLY || this == NO_HEADER;
    }

    /** Whether the mode needs the group's {@code mac} profile (it spoils what that profile adds). */
    public boolean needsMac() {
        return spoilsAuthenticators();
    }

    /**
     * Whether replica {@code node} must refuse every request of this mode ({@code primary}: the node treated as the
     * primary): the modes that spoil authenticators, at the nodes whose entry they spoil.
     */
    public boolean refusedBy(String node, String primary) {
        return spoilsAuthenticators() && !keepsEntryFor(node, primary);
    }

    /** Whether the entry for {@code node} stays valid, {@code primary} being the node treated as the primary. */
    boolean keepsEntryFor(String node, String primary) {
        boolean isPrimary = node.equalsIgnoreCase(primary);
        return switch (this) {
            case PRIMARY_ONLY -> isPrimary;
            case BACKUPS_ONLY -> !isPrimary;
            default -> false;
        };
    }

    public static Optional<HostileMode> of(String label) {
        return Arrays.stream(values()).filter(m -> m.label().equals(label)).findFirst();
    }

    /** The labels, separated by '|'. */
    public static String labels() {
        return String.join("|", Arrays.stream(values()).map(HostileMode::label).toList());
    }
}
