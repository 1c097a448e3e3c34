package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.settings.NodeSettings;
import org.bftws.monitoring.LoggingCheck;
import java.util.function.Supplier;

import org.bftws.axis2.monitoring.StatusServlet;
import org.bftws.axis2.ordering.BftReplica;
import org.bftws.axis2.ordering.ControlService;
import org.bftws.axis2.ordering.RawRequestCapture;
import org.bftws.config.ReplicasConfig;
import org.bftws.axis2.security.SecurityRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisDescription;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.modules.Module;
import org.apache.neethi.Assertion;
import org.apache.neethi.Policy;

/**
 * The bftws Axis2 module: creates the node's state on init (and, on a replica of a BFT group, its replica role:
 * the control service and PBFT ordering), and stops its threads on shutdown.
 */
public final class BftModule implements Module {
    private static final Logger LOG = LoggerFactory.getLogger(BftModule.class);
    /**
     * Largest request a replica takes: exactly what the PBFT wire format carries as one request's payload, since a
     * replica that missed a request gets these bytes relayed by its peers, and a larger one could never reach it
     * (it would stay behind, its peers resending the request for ever).
     */
    static final int REQUEST_LIMIT = org.bftws.wire.WireLimits.DEFAULT_MAX_PAYLOAD_BYTES;

    static boolean isReplicaOfBftGroup(java.util.Optional<org.bftws.config.GroupConfig> group) {
        return group.map(g -> !g.wsrmOnly()).orElse(false);
    }

    @Override
    public void init(ConfigurationContext configContext, AxisModule module) throws AxisFault {
        try {
            NodeSettings settings = NodeSettings.from(module);
            String party = SecurityRuntime.of(configContext).self();
            // the group this node serves: its only one, or for an agreement node of several services the one its
            // 'service' setting names
            java.util.Optional<org.bftws.config.GroupConfig> group = SecurityRuntime.of(configContext).ownGroup();
            boolean replica = isReplicaOfBftGroup(group);
            if (replica) {
                // Keys and data directory now, before the node exists: the replica role starts later, on a timer,
                // where a failure would only be logged and the node would run on without ordering anything.
                BftReplica.checkStartable(group.orElseThrow(), party);
            }
            LoggingCheck.warnOnceWithoutProvider();
            BftwsNode node = new BftwsNode(configContext, settings);
            org.bftws.axis2.monitoring.Monitoring monitoring = org.bftws.axis2.monitoring.Monitoring.install(
                    configContext, node, settings.replicas(), party, SecurityRuntime.of(configContext).refusals());
            configContext.setProperty(BftwsNode.PROPERTY, node);
            // the status page's document, for a StatusServlet that cannot see this class loader (a web application
            // whose module comes from WEB-INF/modules/bftws.mar): a JDK type both sides share
            Supplier<String> status = monitoring::status;
            configContext.setProperty(StatusServlet.STATUS_PROPERTY, status);
            Supplier<Integer> statusCode = monitoring::statusCode;
            configContext.setProperty(StatusServlet.STATUS_CODE_PROPERTY, statusCode);
            Supplier<String> metrics = monitoring::metrics;
            configContext.setProperty(StatusServlet.METRICS_PROPERTY, metrics);
            // Replicas order client requests under the digest of their exact bytes (no larger than one PBFT request
            // carries); every node checks a mac authenticator over the bytes as they arrived.
            RawRequestCapture.install(configContext.getAxisConfiguration(), replica ? REQUEST_LIMIT
                    : RawRequestCapture.NO_LIMIT, node.counters());
            if (replica) {
                // and exchange PBFT messages on the control service
                ControlService.deploy(configContext.getAxisConfiguration(), node::replica);
                // Axis2 initialises modules before it deploys services: start once the service is there.
                node.startReplicaWhenDeployed(party, group.orElseThrow());
            }
        } catch (RuntimeException e) {
            throw new AxisFault("bftws module: " + e.getMessage(), e);
        }
    }

    @Override
    public void engageNotify(AxisDescription axisDescription) {
    }

    @Override
    public boolean canSupportAssertion(Assertion assertion) {
        return false;
    }

    @Override
    public void applyPolicy(Policy policy, AxisDescription axisDescription) {
    }

    @Override
    public void shutdown(ConfigurationContext configurationContext) throws AxisFault {
        Object node = configurationContext.getProperty(BftwsNode.PROPERTY);
        if (node instanceof BftwsNode n) {
            try {
                n.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
