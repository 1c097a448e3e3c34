package org.bftws.axis2.monitoring;

import org.bftws.monitoring.JmxRegistrations;
import org.bftws.monitoring.StatusDocument;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.node.BftwsNode;
import org.bftws.config.ReplicasConfig;
import org.bftws.security.RefusalCounter;

/**
 * What operators read about one node: the figures of the node and of its replica role (once it has started), for
 * the status page and the MBeans. It watches the node from outside (the node knows nothing of monitoring): it is
 * told when the replica role starts, and unregisters the MBeans when the node stops.
 */
public final class Monitoring {

    /** ConfigurationContext property under which a node's monitoring is kept. */
    public static final String PROPERTY = "bftws.monitoring";

    private final JmxRegistrations jmx = new JmxRegistrations();
    private final NodeMonitor nodeMonitor;
    private volatile ReplicaMonitor replicaMonitor;

    private Monitoring(NodeMonitor nodeMonitor) {
        this.nodeMonitor = nodeMonitor;
    }

    /**
     * Watches {@code node}: for a node of a group in {@code replicas} its {@code org.bftws:type=Node} MBean now and,
     * once its replica role starts, the replica's (clients have no MBean: several client engines of one party often
     * share a JVM). {@code refusals} are the security handlers' refusal counts.
     */
    public static Monitoring install(ConfigurationContext context, BftwsNode node, ReplicasConfig replicas,
                                     String party, RefusalCounter refusals) {
        NodeMonitor nodeMonitor = new NodeMonitor(party, node, refusals, HttpAdmissionCounters.of(context));
        if (replicas.tlsOn()) {
            nodeMonitor.watchTls(() -> org.bftws.axis2.security.SecurityRuntime.of(context).tls());
        }
        Monitoring m = new Monitoring(nodeMonitor);
        java.util.List<org.bftws.config.GroupConfig> groups = party == null ? java.util.List.of()
                : replicas.groupsOfNode(party);
        if (groups.size() == 1) {
            m.jmx.register(JmxRegistrations.nodeName(party), m.nodeMonitor);
        } else if (groups.size() > 1) {
            // an agreement node of several services: this Axis2 node serves one of them, its sibling the others
            org.bftws.axis2.security.SecurityRuntime.of(context).ownGroup().ifPresent(g ->
                    m.jmx.register(JmxRegistrations.nodeName(party, g.service()), m.nodeMonitor));
        }
        node.whenReplicaStarts(r -> {
            ReplicaMonitor monitor = new ReplicaMonitor(node, r, refusals);
            m.replicaMonitor = monitor;
            m.jmx.register(JmxRegistrations.replicaName(r.service(), r.name()), monitor);
        });
        node.whenStopping(m.jmx::unregisterAll);
        context.setProperty(PROPERTY, m);
        return m;
    }

    /** The monitoring of the node of {@code context}, or figures without MBeans when none was installed. */
    public static Monitoring of(ConfigurationContext context) {
        Object m = context.getProperty(PROPERTY);
        if (m instanceof Monitoring monitoring) {
            return monitoring;
        }
        return new Monitoring(new NodeMonitor(null, BftwsNode.of(context), new RefusalCounter(),
                HttpAdmissionCounters.of(context)));
    }

    /** The figures of this node for the status page and JMX. */
    public NodeMonitor node() {
        return nodeMonitor;
    }

    /** The figures of this node's replica role, or null while it has none. */
    public ReplicaMonitor replica() {
        return replicaMonitor;
    }

    /** The status page's HTTP status: 503 while the replica executes nothing, else 200. */
    public int statusCode() {
        return StatusDocument.httpStatus(replicaMonitor);
    }

    /** The status page's JSON. */
    public String status() {
        return StatusDocument.of(nodeMonitor, replicaMonitor,
                replicaMonitor == null ? null : replicaMonitor.replica().measurements());
    }
}
