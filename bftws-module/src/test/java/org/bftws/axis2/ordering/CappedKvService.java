package org.bftws.axis2.ordering;

import java.util.Iterator;

import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMNode;
import org.apache.axis2.AxisFault;
import org.bftws.samples.kv.KvService;

/**
 * The key-value sample as an older version of it would be: it cannot hold a balance above {@link #CAP}, and its
 * {@code set_state} refuses a state that has one (as a service refuses a state it cannot read). A replica deployed
 * with it installs the group's states only while no account holds more.
 */
public class CappedKvService extends KvService {

    static final long CAP = 1000;

    @Override
    public synchronized OMElement set_state(OMElement request) throws AxisFault {
        request.build();
        for (Iterator<OMNode> it = request.getDescendants(false); it.hasNext(); ) {
            Object o = it.next();
            if (o instanceof OMElement e && e.getLocalName().equals("account")
                    && Long.parseLong(e.getText().trim()) > CAP) {
                throw new AxisFault("this version holds balances up to " + CAP + "; account '"
                        + e.getAttributeValue(new javax.xml.namespace.QName("key")) + "' holds " + e.getText().trim());
            }
        }
        return super.set_state(request);
    }
}
