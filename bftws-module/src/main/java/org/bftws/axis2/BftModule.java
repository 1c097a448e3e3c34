package org.bftws.axis2;

import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.description.AxisDescription;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.modules.Module;
import org.apache.neethi.Assertion;
import org.apache.neethi.Policy;

/** The bftws Axis2 module: creates the node's state on init and stops its threads on shutdown. */
public final class BftModule implements Module {

    @Override
    public void init(ConfigurationContext configContext, AxisModule module) throws AxisFault {
        try {
            configContext.setProperty(BftwsNode.PROPERTY, new BftwsNode(configContext, NodeSettings.from(module)));
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
