package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.xml.namespace.QName;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.Constants;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.AxisService;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.samples.ledger.LedgerService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * get_state and set_state of POJO services, as a replica delivers them: Axis2 (RPCMessageReceiver, the schema it
 * generates from the class) wraps get_state's result in {@code return}, set_state reads its parameter's element; the
 * state goes from one engine's service to another's with no help from the service, for a String state (the ledger
 * sample) and a byte[] one.
 */
class PojoStateOperationsTest {
    private static final Path PLAIN_AXIS2_XML = Path.of("src", "test", "resources", "axis2-plain.xml").toAbsolutePath();
    private static final OMFactory F = OMAbstractFactory.getOMFactory();

    @TempDir
    Path dir;

    private final java.util.Map<StateOperations, RequestContexts> contexts = new java.util.HashMap<>();

    @Test
    void aPojoLedgersStringStateReachesSetStateAsItsParameterAndRestoresTheLedgerExactly() throws Exception {
        StateOperations a = node("a", LedgerService.class);
        StateOperations b = node("b", LedgerService.class);
        call(a, "deposit", "account", "bob", "amount", "5");
        call(a, "deposit", "account", "alice", "amount", "7");
        call(b, "deposit", "account", "carol", "amount", "1"); // replaced, not merged
        byte[] state = a.getState();
        String text = new String(state, StandardCharsets.UTF_8);
        assertTrue(text.contains("return>alice=7\nbob=5\n</"), "Axis2 wraps the result in return: " + text);

        b.setState(state);
        assertArrayEquals(state, b.getState());
        assertEquals("12", call(b, "deposit", "account", "alice", "amount", "5"));
        assertEquals("0", call(b, "balance", "account", "carol"));
    }

    @Test
    void aPojoByteArrayStateRoundTripsAndAStateTheServiceRefusesLeavesItAsItWas() throws Exception {
        StateOperations a = node("a", BytesStateService.class);
        StateOperations b = node("b", BytesStateService.class);
        call(a, "append", "text", "first");
        call(a, "append", "text", "zweite \u00e9tape");
        byte[] state = a.getState();
        b.setState(state);
        assertArrayEquals(state, b.getState());
        assertEquals(Integer.toString("first\nzweite \u00e9tape\nthird\n".getBytes(StandardCharsets.UTF_8).length),
                call(b, "append", "text", "third"));

        byte[] before = b.getState();
        String noBreak = java.util.Base64.getEncoder().encodeToString("no line break".getBytes(StandardCharsets.UTF_8));
        String forged = new String(state, StandardCharsets.UTF_8)
                .replaceFirst("(<return[^>]*>)[^<]*<", "$1" + noBreak + "<");
        assertTrue(!forged.equals(new String(state, StandardCharsets.UTF_8)), forged);
        AxisFault refused = assertThrows(AxisFault.class, () -> b.setState(forged.getBytes(StandardCharsets.UTF_8)),
                forged + " / after: " + new String(b.getState(), StandardCharsets.UTF_8));
        assertTrue(refused.getMessage().contains("refused the state: the state does not end with a line break"),
                refused.getMessage());
        assertArrayEquals(before, b.getState());
    }

    /** An engine of its own (no bftws module) with {@code pojo} deployed as Axis2 deploys a POJO .aar. */
    private StateOperations node(String name, Class<?> pojo) throws Exception {
        Path repository = Files.createDirectories(dir.resolve(name));
        Files.createDirectories(repository.resolve("services"));
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                repository.toString(), PLAIN_AXIS2_XML.toString());
        AxisService service = AxisService.createService(pojo.getName(), ctx.getAxisConfiguration());
        service.setScope(Constants.SCOPE_APPLICATION);
        ctx.getAxisConfiguration().addService(service);
        RequestContexts c = new RequestContexts(ctx, service);
        StateOperations ops = new StateOperations(c, new ServiceDelivery());
        contexts.put(ops, c);
        return ops;
    }

    /** Calls {@code operation} with the parameters {@code nameValue} (name, value, ...); returns its result's text. */
    private String call(StateOperations node, String operation, String... nameValue) throws Exception {
        RequestContexts c = contexts.get(node);
        String ns = c.service().getTargetNamespace();
        List<OMElement> parameters = new java.util.ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            OMElement p = F.createOMElement(new QName(ns, nameValue[i]));
            p.setText(nameValue[i + 1]);
            parameters.add(p);
        }
        var reply = new ServiceDelivery().deliver(c.ownRequest(operation, parameters.iterator()));
        assertTrue(reply != null && !reply.fault(), operation + ": " + (reply == null ? "no reply"
                : new String(reply.envelope(), StandardCharsets.UTF_8)));
        String envelope = new String(reply.envelope(), StandardCharsets.UTF_8);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<(?:\\w+:)?return[^>]*>([^<]*)</")
                .matcher(envelope);
        return m.find() ? m.group(1) : "";
    }
}
