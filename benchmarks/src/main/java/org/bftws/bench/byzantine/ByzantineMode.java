package org.bftws.bench.byzantine;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

import org.apache.axis2.AxisFault;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.engine.AxisConfiguration;
import org.bftws.channels.ReplicaChannelDecorator;

/**
 * How a Byzantine replica of the testbed lies ({@code ./bftws replica --byzantine MODE}, docs/byzantine-testing.md).
 * Each mode is a testing tool of this launcher, never of the product: it is installed in the node's Axis2
 * configuration before the bftws module starts (a handler of the out-flow, or a {@link ReplicaChannelDecorator}),
 * and only on a node that replicas.xml allows to lie.
 */
public enum ByzantineMode {

    /** Validly authenticated replies with the wrong content. */
    WRONG_REPLIES(false, "authentic echo and append replies with the wrong content (the client's Voter outvotes them)"),
    /** As primary, different pre-prepares for one sequence number to different backups. */
    EQUIVOCATE(true, "as primary, the real pre-prepare to one backup and another batch (same requests, another "
            + "time) for the same sequence number to the others (the backups change the view)"),
    /** As primary, no pre-prepares at all. */
    SILENT_PRIMARY(true, "as primary, sends no pre-prepare (the backups change the view)"),
    /** Its own old PBFT messages sent again. */
    REPLAY(false, "sends two of its own old PBFT messages again with each message (refused below the watermarks)"),
    /** A made-up state digest in every checkpoint, a corrupted state when asked for one. */
    BAD_CHECKPOINT(false, "a made-up state digest in every checkpoint, corrupted state bytes in a state transfer"),
    /** Its recent messages again and again, as fast as the channel takes them. */
    FLOOD(false, "sends its recent valid messages to every node again and again, as fast as its channel takes them");

    private final boolean primary;
    private final String lie;

    ByzantineMode(boolean primary, String lie) {
        this.primary = primary;
        this.lie = lie;
    }

    /** The option value: {@code wrong-replies}, {@code equivocate}... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the mode lies as primary: its node must be the view-0 primary (id 0). */
    public boolean asPrimary() {
        return primary;
    }

    /** The node id the testbed runs the mode on: the view-0 primary for a primary's lie, else a backup (3). */
    public int testbedNode() {
        return primary ? 0 : 3;
    }

    /** What the replica does, for the usage and the testbed's report. */
    public String lie() {
        return lie;
    }

    public static Optional<ByzantineMode> of(String label) {
        return Arrays.stream(values()).filter(m -> m.label().equals(label)).findFirst();
    }

    /** The labels, separated by '|'. */
    public static String labels() {
        return String.join("|", Arrays.stream(values()).map(ByzantineMode::label).toList());
    }

    /** Installs the lie in a node's Axis2 configuration (before the bftws module initialises). */
    public void install(AxisConfiguration axis) throws AxisFault {
        if (this == WRONG_REPLIES) {
            WrongReplies.install(axis);
            return;
        }
        ReplicaChannelDecorator decorator = (channel, self, membership) -> switch (this) {
            case EQUIVOCATE -> new Equivocation(channel, self, membership);
            case SILENT_PRIMARY -> new SilentPrimary(channel, self);
            case REPLAY -> new Replay(channel, self);
            case BAD_CHECKPOINT -> new BadCheckpoints(channel, self);
            case FLOOD -> new Flood(channel, self);
            case WRONG_REPLIES -> throw new IllegalStateException("not a channel's lie");
        };
        axis.addParameter(new Parameter(ReplicaChannelDecorator.PARAMETER, decorator));
    }
}
