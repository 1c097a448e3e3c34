package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.ConfigurationContextFactory;
import org.apache.axis2.description.AxisService;
import org.apache.axis2.description.Parameter;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * get_state and set_state as a replica delivers them to its own service (the echo sample, in an Axis2 engine of its
 * own): the checkpointed bytes are the service's response element, equal for equal states, and a state installed
 * elsewhere gives back exactly the same bytes; a state that is not the service's refuses cleanly.
 */
class StateOperationsTest {
    private static final Path PLAIN_AXIS2_XML = Path.of("src", "test", "resources", "axis2-plain.xml").toAbsolutePath();
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace E = F.createOMNamespace(EchoService.NS, "e");
    /** About 1.6 MB of padding: large enough that a per-element mistake shows, small enough for a unit test. */
    private static final int PADS = 20_000;

    @TempDir
    Path dir;

    @Test
    void aLargeStateRoundTripsByteIdenticallyThroughGetStateAndSetState() throws Exception {
        StateOperations a = node("a", PADS);
        append(a, "first", "second", "third");
        byte[] state = a.getState();
        assertTrue(state.length > PADS * 70, "the padding is in the state: " + state.length + " bytes");

        StateOperations b = node("b", 0);
        b.setState(state);
        assertArrayEquals(state, b.getState(), "installed elsewhere, the state reads back byte for byte");
    }

    @Test
    void theCheckpointedBytesAreTheResponseElementAloneAndEqualForEqualStates() throws Exception {
        StateOperations a = node("a", 10);
        StateOperations b = node("b", 10);
        append(a, "x", "y");
        append(b, "x", "y");
        byte[] state = a.getState();
        String text = new String(state, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("<e:get_stateResponse"), "no envelope, no XML declaration: " + text);
        assertTrue(text.contains("<e:entry>y</e:entry>"), text);
        assertArrayEquals(state, b.getState(), "the same requests in the same order give the same bytes");
        append(b, "z");
        assertTrue(!Arrays.equals(state, b.getState()), "a different state gives different bytes");
    }

    @Test
    void aStateThatIsNotWellFormedIsRefusedWithAReasonAndLeavesTheServiceAsItWas() throws Exception {
        StateOperations a = node("a", 100);
        append(a, "kept");
        byte[] before = a.getState();
        byte[] truncated = Arrays.copyOf(before, before.length / 2);

        AxisFault refused = assertThrows(AxisFault.class, () -> a.setState(truncated));
        assertTrue(refused.getMessage().contains("refused the state"), refused.getMessage());
        assertArrayEquals(before, a.getState());
    }

    @Test
    void aStateWhoseLogDoesNotMatchItsDigestIsRefusedByTheService() throws Exception {
        StateOperations a = node("a", 0);
        append(a, "one");
        String forged = new String(a.getState(), StandardCharsets.UTF_8).replace(">one<", ">two<");

        AxisFault refused = assertThrows(AxisFault.class, () -> a.setState(forged.getBytes(StandardCharsets.UTF_8)));
        assertTrue(refused.getMessage().contains("does not match"), refused.getMessage());
    }

    /** The state operations of one engine, and its contexts to deliver other requests (appends) with. */
    private final java.util.Map<StateOperations, RequestContexts> contexts = new java.util.HashMap<>();

    private StateOperations node(String name, int pads) throws Exception {
        ConfigurationContext ctx = ConfigurationContextFactory.createConfigurationContextFromFileSystem(
                EchoRepository.create(dir.resolve(name)).toString(), PLAIN_AXIS2_XML.toString());
        AxisService service = ctx.getAxisConfiguration().getService("EchoService");
        service.addParameter(new Parameter(EchoService.STATE_ELEMENTS, Integer.toString(pads)));
        RequestContexts c = new RequestContexts(ctx, service);
        StateOperations ops = new StateOperations(c, new ServiceDelivery());
        contexts.put(ops, c);
        return ops;
    }

    private void append(StateOperations node, String... values) throws AxisFault {
        for (String v : values) {
            OMElement value = F.createOMElement("value", E);
            value.setText(v);
            var reply = new ServiceDelivery().deliver(contexts.get(node).ownRequest("append", List.of(value).iterator()));
            assertTrue(reply != null && !reply.fault(), "append " + v);
        }
    }
}
