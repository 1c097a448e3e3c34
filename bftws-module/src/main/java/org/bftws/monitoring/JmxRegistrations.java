package org.bftws.monitoring;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MBeans one node registered in the platform MBean server, so that the module's shutdown removes exactly those:
 * a node restarted in the same JVM (as tests do) registers the same names again. Monitoring never stops a node: a
 * name another node of this JVM already holds (two engines with one party name) is logged and left out.
 */
public final class JmxRegistrations {
    private static final Logger LOG = LoggerFactory.getLogger(JmxRegistrations.class);
    /** The JMX domain of the module's MBeans. */
    public static final String DOMAIN = "org.bftws";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final List<ObjectName> registered = new ArrayList<>();
    /** Set once the node stopped: a replica role that starts late (on the node's timer) registers nothing. */
    private boolean closed;

    /** {@code org.bftws:type=Node,name=<party>}. */
    public static ObjectName nodeName(String party) {
        return name("type=Node,name=" + value(party));
    }

    /**
     * {@code org.bftws:type=Node,name=<party>,group=<service>}: one of the Axis2 nodes of an agreement node that
     * orders several services ({@code <agreementGroup>}), one per service in one JVM.
     */
    public static ObjectName nodeName(String party, String service) {
        return name("type=Node,name=" + value(party) + ",group=" + value(service));
    }

    /** {@code org.bftws:type=Replica,group=<service>,name=<party>}. */
    public static ObjectName replicaName(String service, String party) {
        return name("type=Replica,group=" + value(service) + ",name=" + value(party));
    }

    /**
     * A name as it is when it needs no quoting (replicas.xml's party names and Axis2's service names rarely do, and
     * {@code name=replica1} is what an operator types into jconsole), else quoted.
     */
    private static String value(String v) {
        return v.matches("[A-Za-z0-9._-]+") ? v : ObjectName.quote(v);
    }

    private static ObjectName name(String properties) {
        try {
            return new ObjectName(DOMAIN + ":" + properties);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Registers {@code mbean} under {@code name}; logs and skips when it cannot (the node runs on). */
    public synchronized void register(ObjectName name, Object mbean) {
        if (closed) {
            return;
        }
        try {
            server.registerMBean(mbean, name);
            registered.add(name);
        } catch (InstanceAlreadyExistsException e) {
            LOG.warn("bftws: JMX name {} is taken by another node of this JVM (two nodes with one party name?); this "
                    + "node's MBean is not registered", name);
        } catch (JMException | RuntimeException e) {
            LOG.warn("bftws: cannot register MBean {}: {}", name, e.toString());
        }
    }

    /** Unregisters every MBean this node registered; registers nothing afterwards. */
    public synchronized void unregisterAll() {
        closed = true;
        for (ObjectName name : registered) {
            try {
                server.unregisterMBean(name);
            } catch (InstanceNotFoundException e) {
                // already gone: someone unregistered it by hand
            } catch (JMException | RuntimeException e) {
                LOG.warn("bftws: cannot unregister MBean {}: {}", name, e.toString());
            }
        }
        registered.clear();
    }
}
