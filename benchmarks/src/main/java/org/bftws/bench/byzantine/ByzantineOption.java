package org.bftws.bench.byzantine;

import java.util.Optional;

import org.bftws.config.GroupConfig;
import org.bftws.config.NodeConfig;
import org.bftws.server.Cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code ./bftws replica --byzantine MODE}: the launcher's option that makes its replica lie (a picocli mixin of the
 * checkout's replica command; the product's replica has no such option). Refused unless the node's {@code <node>}
 * in replicas.xml says {@code byzantineAllowed="true"}, and for a primary's lie unless the node is the view-0
 * primary.
 */
public final class ByzantineOption {

    /** The replica command the option belongs to, for a refusal's usage line. */
    private CommandSpec mixee;

    @Option(names = "--byzantine", paramLabel = "MODE",
            description = "testing only: make this replica lie, if replicas.xml allows it for the node "
                    + "(<node byzantineAllowed=\"true\">): wrong-replies, replay, bad-checkpoint, flood (any node), "
                    + "equivocate, silent-primary (the view-0 primary, --id 0 only); docs/byzantine-testing.md")
    String mode;

    /** Adds the option to the replica command {@code line}. */
    public void addTo(CommandLine line) {
        line.addMixin("byzantine", this);
        mixee = line.getCommandSpec();
    }

    /** The mode asked for, if any; a value that names none is a bad command line. */
    public Optional<ByzantineMode> mode() {
        if (mode == null) {
            return Optional.empty();
        }
        return Optional.of(ByzantineMode.of(mode).orElseThrow(() -> Cli.refuse(mixee, "--byzantine must be one of "
                + ByzantineMode.labels().replace("|", ", ") + ", not '" + mode + "'")));
    }

    /** Why {@code node} may not run the mode asked for, or null (also when none is asked for). */
    public String refusal(GroupConfig group, NodeConfig node) {
        Optional<ByzantineMode> asked = mode();
        if (asked.isEmpty()) {
            return null;
        }
        ByzantineMode m = asked.get();
        if (!node.byzantineAllowed()) {
            return "--byzantine " + m.label() + " refused: <node name=\"" + node.name() + "\"> of group "
                    + group.service() + " in replicas.xml does not say byzantineAllowed=\"true\"";
        }
        if (m.asPrimary() && (!node.role().orders() || node.id() != 0)) {
            return "--byzantine " + m.label() + " lies as the primary: run it on the view-0 primary (the agreement "
                    + "node with id 0), not " + node.name();
        }
        return null;
    }
}
