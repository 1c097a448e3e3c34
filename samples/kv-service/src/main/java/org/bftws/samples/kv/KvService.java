package org.bftws.samples.kv;

import java.util.Iterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;

/**
 * A replicated key-value store of account balances: {@code put}, {@code get}, {@code compareAndSet} and
 * {@code transfer} on named accounts, whose requests conflict whenever they touch the same key, so the order
 * BFT-WS gives them decides every result. {@code get_state} and {@code set_state} are the operations BFT-WS calls for
 * checkpoints and state transfer (docs/replicating-a-service.md).
 *
 * <p>Deployed with {@code RawXMLINOutMessageReceiver}: each public method receives the SOAP body's first element and
 * returns the response element. A request that cannot be carried out (bad input, a transfer the balance does not
 * cover) is answered with a SOAP fault whose reason says why; it changes nothing, and every replica answers it with
 * the same fault.
 *
 * <p>Deterministic: the result of an operation depends only on the state and the request. The methods are
 * synchronised because a plain (unreplicated) Axis2 server calls them from several threads; a replica delivers
 * requests one at a time in the agreed order.
 */
public class KvService {

    public static final String NS = "http://bftws.org/samples/kv";
    static final String PREFIX = "kv";

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace KV = F.createOMNamespace(NS, PREFIX);

    private final KvState state = new KvState();

    /** {@code get(key)}: the key and its value, or the key alone when it has none. */
    public synchronized OMElement get(OMElement request) throws AxisFault {
        expect(request, "get");
        String key = key(request, "key");
        OMElement response = F.createOMElement("getResponse", KV);
        child(response, "key", key);
        state.get(key).ifPresent(v -> child(response, "value", Long.toString(v)));
        return response;
    }

    /** {@code put(key, value)}: stores the value; answers with the value it replaced, if any. */
    public synchronized OMElement put(OMElement request) throws AxisFault {
        expect(request, "put");
        String key = key(request, "key");
        long value = number(request, "value");
        OptionalLong previous = apply(() -> state.put(key, value));
        OMElement response = F.createOMElement("putResponse", KV);
        previous.ifPresent(v -> child(response, "previous", Long.toString(v)));
        return response;
    }

    /**
     * {@code compareAndSet(key, expected?, value)}: stores the value only if the key holds {@code expected} (no
     * {@code expected} element: only if the key has no value). Answers whether it swapped and the value stored now.
     */
    public synchronized OMElement compareAndSet(OMElement request) throws AxisFault {
        expect(request, "compareAndSet");
        String key = key(request, "key");
        OptionalLong expected = request.getFirstChildWithName(q("expected")) == null ? OptionalLong.empty()
                : OptionalLong.of(number(request, "expected"));
        long value = number(request, "value");
        KvState.Swap swap = apply(() -> state.compareAndSet(key, expected, value));
        OMElement response = F.createOMElement("compareAndSetResponse", KV);
        child(response, "swapped", Boolean.toString(swap.swapped()));
        swap.current().ifPresent(v -> child(response, "current", Long.toString(v)));
        return response;
    }

    /**
     * {@code transfer(from, to, amount)}: moves a positive amount between two accounts; answers with both new
     * balances. A fault when {@code from} does not exist or holds less than the amount.
     */
    public synchronized OMElement transfer(OMElement request) throws AxisFault {
        expect(request, "transfer");
        String from = key(request, "from");
        String to = key(request, "to");
        long amount = number(request, "amount");
        KvState.Balances b = apply(() -> state.transfer(from, to, amount));
        OMElement response = F.createOMElement("transferResponse", KV);
        child(response, "fromBalance", Long.toString(b.from()));
        child(response, "toBalance", Long.toString(b.to()));
        return response;
    }

    /**
     * The whole state in canonical form: one {@code account} per key, in key order, under a {@code state} element
     * that also carries the number of accounts and their total (which {@code set_state} checks). Equal states give
     * equal elements, hence equal bytes on every replica.
     */
    public synchronized OMElement get_state(OMElement request) throws AxisFault {
        expect(request, "get_state");
        OMElement response = F.createOMElement("get_stateResponse", KV);
        OMElement st = F.createOMElement("state", KV, response);
        st.addAttribute("accounts", Integer.toString(state.accounts().size()), null);
        st.addAttribute("total", state.total().toString(), null);
        for (Map.Entry<String, Long> e : state.accounts().entrySet()) {
            OMElement account = F.createOMElement("account", KV, st);
            account.addAttribute("key", e.getKey(), null);
            account.setText(Long.toString(e.getValue()));
        }
        return response;
    }

    /**
     * Replaces the whole state with one {@code get_state} returned (here or on another replica). A state that is not
     * in that form, repeats a key, or whose accounts do not add up to its {@code accounts} and {@code total}
     * attributes is refused with a fault, and the current state is kept.
     */
    public synchronized OMElement set_state(OMElement request) throws AxisFault {
        expect(request, "set_state");
        OMElement st = request.getFirstChildWithName(q("state"));
        if (st == null) {
            throw fault("set_state needs a {" + NS + "}state child");
        }
        Map<String, Long> accounts = new TreeMap<>();
        for (Iterator<OMElement> it = st.getChildElements(); it.hasNext(); ) {
            OMElement account = it.next();
            if (!q("account").equals(account.getQName())) {
                throw fault("unexpected element " + account.getQName() + " in the state");
            }
            String key = account.getAttributeValue(new QName("key"));
            if (key == null) {
                throw fault("an account of the state has no key attribute");
            }
            if (accounts.put(key, parse("balance of '" + key + "'", account.getText())) != null) {
                throw fault("the state holds account '" + key + "' twice");
            }
        }
        String count = st.getAttributeValue(new QName("accounts"));
        String total = st.getAttributeValue(new QName("total"));
        if (!Integer.toString(accounts.size()).equals(count)) {
            throw fault("the state says " + count + " accounts but holds " + accounts.size());
        }
        if (!KvState.total(accounts).toString().equals(total)) {
            throw fault("the state says its balances total " + total + " but they add up to "
                    + KvState.total(accounts));
        }
        apply(() -> {
            state.replace(accounts);
            return null;
        });
        OMElement response = F.createOMElement("set_stateResponse", KV);
        child(response, "accounts", Integer.toString(accounts.size()));
        return response;
    }

    /** What an operation on the state does; may refuse. */
    private interface Operation<T> {
        T run() throws KvState.Refused;
    }

    private static <T> T apply(Operation<T> op) throws AxisFault {
        try {
            return op.run();
        } catch (KvState.Refused e) {
            throw fault(e.getMessage());
        }
    }

    /** A key-valued child: present, and a valid key. */
    private static String key(OMElement request, String name) throws AxisFault {
        String key = required(request, name).getText();
        try {
            KvState.checkKey(key);
        } catch (KvState.Refused e) {
            throw fault(name + ": " + e.getMessage());
        }
        return key;
    }

    /** A number-valued child: present, and a whole number. */
    private static long number(OMElement request, String name) throws AxisFault {
        return parse(name, required(request, name).getText());
    }

    private static long parse(String what, String text) throws AxisFault {
        String t = text.strip();
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw fault(what + " must be a whole number, not '" + t + "'");
        }
    }

    private static OMElement required(OMElement request, String name) throws AxisFault {
        OMElement child = request.getFirstChildWithName(q(name));
        if (child == null) {
            throw fault(request.getLocalName() + " needs a {" + NS + "}" + name + " child");
        }
        return child;
    }

    private static void expect(OMElement request, String name) throws AxisFault {
        if (request == null) {
            throw fault("empty SOAP body: expected {" + NS + "}" + name);
        }
        if (!NS.equals(request.getNamespaceURI()) || !name.equals(request.getLocalName())) {
            throw fault("expected {" + NS + "}" + name + " but got " + request.getQName());
        }
    }

    private static void child(OMElement parent, String name, String text) {
        F.createOMElement(name, KV, parent).setText(text);
    }

    private static QName q(String name) {
        return new QName(NS, name);
    }

    /** A fault whose reason is {@code reason}, the same on every replica (no stack trace, no host detail). */
    private static AxisFault fault(String reason) {
        return new AxisFault(reason);
    }
}
