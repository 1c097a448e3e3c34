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

    /**
     * Lets Axis2 address {@code https://} endpoints (a replica's control service on the SOAP replica channel over
     * HTTPS, a node called directly) when axis2.xml declares a sender for {@code http} only: Axis2 refuses to send to a
     * URL whose scheme names no transport before any handler runs. The module's MulticastSender, which opens the
     * connections with the party's TLS, replaces it for every message the module sends; messages the module does not
     * handle go through a sender of the same class and parameters as {@code http}'s. Axis2 initialises it with the other
     * senders, after the modules.
     */
    private static void addHttpsSender(org.apache.axis2.engine.AxisConfiguration axis) throws AxisFault {
        org.apache.axis2.description.TransportOutDescription http = axis.getTransportOut("http");
        if (axis.getTransportOut("https") != null || http == null || http.getSender() == null) {
            return;
        }
        org.apache.axis2.description.TransportOutDescription https =
                new org.apache.axis2.description.TransportOutDescription("https");
        for (org.apache.axis2.description.Parameter p : http.getParameters()) {
            https.addParameter(p);
        }
        try {
            https.setSender(http.getSender().getClass().getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException e) {
            throw new AxisFault("bftws: cannot create an https sender like axis2.xml's http sender "
                    + http.getSender().getClass().getName() + ": " + e, e);
        }
        axis.addTransportOut(https);
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
            addHttpsSender(configContext.getAxisConfiguration());
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
            // who may read it: the parties the setting statusReaders names, by their TLS client certificates
            org.bftws.axis2.monitoring.StatusReaders readers = org.bftws.axis2.monitoring.StatusReaders.parse(
                    org.bftws.axis2.settings.ModuleParameters.value(configContext.getAxisConfiguration(),
                            org.bftws.axis2.monitoring.StatusReaders.SETTING), SecurityRuntime.of(configContext).config());
            if (readers != null) {
                java.util.function.Predicate<String> mayRead = readers;
                configContext.setProperty(StatusServlet.READERS_PROPERTY, mayRead);
            }
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
