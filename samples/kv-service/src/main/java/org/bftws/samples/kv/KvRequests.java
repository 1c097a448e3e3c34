package org.bftws.samples.kv;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;

/**
 * The request elements of the key-value service's operations, as KvService.wsdl defines them, for clients written
 * by hand (the tests, the testbed's load): {@code client.getOptions().setAction(KvRequests.action(request))}, then
 * {@code client.sendReceive(request)}.
 */
public final class KvRequests {

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace KV = F.createOMNamespace(KvService.NS, KvService.PREFIX);

    private KvRequests() {
    }

    public static OMElement get(String key) {
        return op("get", "key", key);
    }

    public static OMElement put(String key, long value) {
        return op("put", "key", key, "value", Long.toString(value));
    }

    /** {@code expected} null: swap only if the key has no value. */
    public static OMElement compareAndSet(String key, Long expected, long value) {
        OMElement e = op("compareAndSet", "key", key);
        if (expected != null) {
            F.createOMElement("expected", KV, e).setText(expected.toString());
        }
        F.createOMElement("value", KV, e).setText(Long.toString(value));
        return e;
    }

    public static OMElement transfer(String from, String to, long amount) {
        return op("transfer", "from", from, "to", to, "amount", Long.toString(amount));
    }

    public static OMElement getState() {
        return F.createOMElement("get_state", KV);
    }

    /** The wsa:Action of a request element: the WSDL's input action, {@code NS/operation}. */
    public static String action(OMElement request) {
        return KvService.NS + "/" + request.getLocalName();
    }

    /** The text of {@code response}'s child {@code name}, or null when it has none. */
    public static String text(OMElement response, String name) {
        OMElement child = response.getFirstChildWithName(new QName(KvService.NS, name));
        return child == null ? null : child.getText();
    }

    /** An element {@code name} with children given as name, text pairs. */
    private static OMElement op(String name, String... children) {
        OMElement e = F.createOMElement(name, KV);
        for (int i = 0; i < children.length; i += 2) {
            F.createOMElement(children[i], KV, e).setText(children[i + 1]);
        }
        return e;
    }
}
