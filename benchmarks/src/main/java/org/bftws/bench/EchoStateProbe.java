package org.bftws.bench;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ServiceContext;
import org.apache.axis2.context.ServiceGroupContext;
import org.apache.axis2.description.AxisService;
import org.bftws.samples.echo.EchoService;

/**
 * Reads the echo sample's state inside a replica JVM, from the service instance the replica executes requests on
 * (application scope: one per node), for the {@code state} and {@code entries} commands of {@link EchoReplica}: the
 * fault tests compare what every replica executed. Calls the instance's own {@code get_state}, which is synchronised
 * with its operations, so a reading is always a state between two executions.
 */
final class EchoStateProbe {

    /** A replica's echo state: appends executed, their running digest and the appended values in order. */
    record Reading(int count, String digest, List<String> entries) {
    }

    private static final OMFactory F = OMAbstractFactory.getOMFactory();

    private EchoStateProbe() {
    }

    /** The state, or null when the echo service is not deployed or has executed nothing yet (no instance). */
    static Reading read(ConfigurationContext context) throws AxisFault {
        if (!(serviceObject(context, "EchoService") instanceof EchoService echo)) {
            return null;
        }
        OMElement state = echo.get_state(F.createOMElement("get_state", F.createOMNamespace(EchoService.NS, "e")))
                .getFirstElement();
        List<String> entries = new ArrayList<>();
        for (Iterator<OMElement> it = state.getChildrenWithName(new QName(EchoService.NS, "entry")); it.hasNext(); ) {
            entries.add(it.next().getText());
        }
        return new Reading(Integer.parseInt(state.getAttributeValue(new QName("count"))),
                state.getAttributeValue(new QName("digest")), entries);
    }

    /**
     * The instance of service {@code name} the node executes requests on (application scope: one per node), or null
     * when the service is not deployed or has not been called yet.
     */
    static Object serviceObject(ConfigurationContext context, String name) throws AxisFault {
        AxisService service = context.getAxisConfiguration().getService(name);
        if (service == null) {
            return null;
        }
        ServiceGroupContext group = context.getServiceGroupContext(service.getAxisServiceGroup()
                .getServiceGroupName());
        ServiceContext sc = group == null ? null : group.getServiceContext(service);
        return sc == null ? null : sc.getProperty(ServiceContext.SERVICE_OBJECT);
    }

    /** {@code state NAME count=C digest=D}, or {@code state NAME none} before the first execution. */
    static String stateLine(String name, Reading r) {
        return "state " + name + (r == null ? " none" : " count=" + r.count() + " digest=" + r.digest());
    }

    /** {@code entries NAME V1,V2,...} (values as appended; the fault tests append values without commas). */
    static String entriesLine(String name, Reading r) {
        return "entries " + name + " " + (r == null ? "" : String.join(",", r.entries()));
    }
}
