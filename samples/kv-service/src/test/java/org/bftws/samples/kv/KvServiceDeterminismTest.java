package org.bftws.samples.kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axis2.AxisFault;
import org.junit.jupiter.api.Test;

/**
 * The determinism test a replicated service needs (docs/replicating-a-service.md, "Test it"): two instances given
 * the same requests in the same order answer alike and end with byte-equal {@code get_state}; a state moved with
 * {@code set_state} reads back byte for byte; bad input is refused with a fault and changes nothing. The service is
 * called directly, as the replica's invoker calls it, so these run in milliseconds.
 */
class KvServiceDeterminismTest {

    private static final String[] KEYS = {"alice", "bob", "carol", "dave", "erin"};

    /** One request of a seeded random mix, conflicting often: five keys, amounts that often exceed a balance. */
    private static OMElement randomRequest(Random r) {
        String key = KEYS[r.nextInt(KEYS.length)];
        return switch (r.nextInt(5)) {
            case 0 -> KvRequests.put(key, r.nextInt(100));
            case 1 -> KvRequests.get(key);
            case 2 -> KvRequests.compareAndSet(key, r.nextBoolean() ? null : (long) r.nextInt(100), r.nextInt(100));
            default -> KvRequests.transfer(key, KEYS[r.nextInt(KEYS.length)], 1 + r.nextInt(60));
        };
    }

    /** Calls the operation the request names; a fault is a reply like any other: its reason is the result. */
    private static String call(KvService s, OMElement request) throws Exception {
        try {
            OMElement reply = switch (request.getLocalName()) {
                case "get" -> s.get(request);
                case "put" -> s.put(request);
                case "compareAndSet" -> s.compareAndSet(request);
                case "transfer" -> s.transfer(request);
                case "get_state" -> s.get_state(request);
                case "set_state" -> s.set_state(request);
                default -> throw new IllegalArgumentException(request.getLocalName());
            };
            return reply.toString();
        } catch (AxisFault f) {
            return "fault: " + f.getReason();
        }
    }

    /** get_state's response element serialised, as the replica digests and checkpoints it. */
    static byte[] stateBytes(KvService s) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.get_state(KvRequests.getState()).serialize(out);
        return out.toByteArray();
    }

    /** set_state with a state's bytes, the way the replica delivers it: their root element renamed to set_state. */
    static OMElement setStateRequest(byte[] state) {
        OMElement root = OMXMLBuilderFactory.createOMBuilder(new ByteArrayInputStream(state)).getDocumentElement();
        root.setLocalName("set_state");
        root.setNamespace(OMAbstractFactory.getOMFactory().createOMNamespace(KvService.NS, "kv"));
        return root;
    }

    @Test
    void theSameRequestsInTheSameOrderGiveTheSameRepliesAndByteEqualStates() throws Exception {
        KvService a = new KvService();
        KvService b = new KvService();
        Random script = new Random(20260512L);
        int faults = 0;
        for (int i = 0; i < 2_000; i++) {
            OMElement request = randomRequest(script);
            String replyA = call(a, request.cloneOMElement());
            assertEquals(replyA, call(b, request.cloneOMElement()), "reply " + i);
            faults += replyA.startsWith("fault:") ? 1 : 0;
            if (i % 100 == 0) {
                assertArrayEquals(stateBytes(a), stateBytes(b), "state after request " + i);
            }
        }
        assertArrayEquals(stateBytes(a), stateBytes(b));
        assertTrue(faults > 100, "the mix exercises refused transfers too: " + faults + " faults");
    }

    @Test
    void equalStatesGiveEqualBytesWhateverOrderTheKeysWereCreatedIn() throws Exception {
        KvService a = new KvService();
        KvService b = new KvService();
        for (String k : KEYS) {
            a.put(KvRequests.put(k, k.length()));
        }
        for (int i = KEYS.length - 1; i >= 0; i--) {
            b.put(KvRequests.put(KEYS[i], KEYS[i].length()));
        }
        assertArrayEquals(stateBytes(a), stateBytes(b));
        String xml = new String(stateBytes(a), StandardCharsets.UTF_8);
        assertTrue(xml.indexOf("\"alice\"") < xml.indexOf("\"bob\"") && xml.indexOf("\"dave\"") < xml.indexOf("\"erin\""),
                "accounts in key order: " + xml);
        assertTrue(xml.contains("accounts=\"5\"") && xml.contains("total=\"21\""), xml);
    }

    @Test
    void conflictingRequestsInAnotherOrderEndInAnotherState() throws Exception {
        KvService a = new KvService();
        KvService b = new KvService();
        for (KvService s : List.of(a, b)) {
            s.put(KvRequests.put("alice", 10));
        }
        OMElement debit = KvRequests.transfer("alice", "bob", 7);
        OMElement swap = KvRequests.compareAndSet("alice", 10L, 100);
        call(a, debit.cloneOMElement());
        String aSwap = call(a, swap.cloneOMElement());
        String bSwap = call(b, swap.cloneOMElement());
        call(b, debit.cloneOMElement());
        assertTrue(aSwap.contains("false") && bSwap.contains("true"), aSwap + " / " + bSwap);
        assertFalse(Arrays.equals(stateBytes(a), stateBytes(b)), "the order of conflicting requests decides the state");
    }

    @Test
    void setStateOfGetStateReadsBackByteForByteOnAnotherInstance() throws Exception {
        KvService a = new KvService();
        Random script = new Random(7);
        for (int i = 0; i < 300; i++) {
            call(a, randomRequest(script));
        }
        a.put(KvRequests.put("ünïcode & <markup> \"quoted\"", 5));
        byte[] state = stateBytes(a);
        KvService fresh = new KvService();
        fresh.put(KvRequests.put("stale", 1)); // replaced, not merged
        fresh.set_state(setStateRequest(state));
        assertArrayEquals(state, stateBytes(fresh));
        a.set_state(setStateRequest(state));
        assertArrayEquals(state, stateBytes(a), "installing its own state changes nothing");
    }

    @Test
    void aStateThatDoesNotAddUpIsRefusedAndTheCurrentStateKept() throws Exception {
        KvService a = new KvService();
        a.put(KvRequests.put("alice", 10));
        a.put(KvRequests.put("bob", 5));
        String good = new String(stateBytes(a), StandardCharsets.UTF_8);
        KvService b = new KvService();
        b.put(KvRequests.put("kept", 1));
        byte[] before = stateBytes(b);
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {good.replace(">10<", ">11<"), "total 15 but they add up to 16"});
        cases.add(new String[] {good.replace("accounts=\"2\"", "accounts=\"3\""), "says 3 accounts but holds 2"});
        cases.add(new String[] {good.replace("\"bob\"", "\"alice\""), "account 'alice' twice"});
        cases.add(new String[] {good.replace(">5<", ">five<"), "balance of 'bob' must be a whole number, not 'five'"});
        cases.add(new String[] {good.replace(">5<", ">-5<").replace("\"15\"", "\"5\""), "must not be negative"});
        cases.add(new String[] {good.replace("key=\"bob\"", ""), "has no key attribute"});
        for (String[] c : cases) {
            AxisFault f = assertThrows(AxisFault.class,
                    () -> b.set_state(setStateRequest(c[0].getBytes(StandardCharsets.UTF_8))), c[0]);
            assertTrue(f.getReason().contains(c[1]), f.getReason());
            assertArrayEquals(before, stateBytes(b), "refused: " + c[1]);
        }
    }

    @Test
    void badInputIsRefusedWithAFaultThatSaysWhyAndChangesNothing() throws Exception {
        KvService s = new KvService();
        s.put(KvRequests.put("alice", 10));
        byte[] before = stateBytes(s);
        OMElement noKey = KvRequests.put("x", 1);
        noKey.getFirstElement().detach();
        OMElement notANumber = KvRequests.put("alice", 1);
        notANumber.getFirstChildWithName(new javax.xml.namespace.QName(KvService.NS, "value")).setText("ten");
        Object[][] cases = {
            {noKey, "put needs a {" + KvService.NS + "}key child"},
            {notANumber, "value must be a whole number, not 'ten'"},
            {KvRequests.put("alice", -1), "value must not be negative, not -1"},
            {KvRequests.put("", 1), "key: a key must not be empty"},
            {KvRequests.put(" alice", 1), "starts or ends with white space"},
            {KvRequests.put("a\u0007b", 1), "control character"},
            {KvRequests.put("k".repeat(201), 1), "at most 200 characters"},
            {KvRequests.transfer("alice", "bob", 0), "amount must be positive, not 0"},
            {KvRequests.transfer("alice", "bob", -3), "amount must be positive, not -3"},
            {KvRequests.transfer("alice", "bob", 11), "insufficient balance: account 'alice' holds 10, the transfer"
                    + " needs 11"},
            {KvRequests.transfer("nobody", "bob", 1), "no account 'nobody'"},
            {KvRequests.transfer("alice", "alice", 1), "to itself"},
            {KvRequests.compareAndSet("alice", 10L, -1), "value must not be negative"},
            {KvRequests.getState(), "expected {" + KvService.NS + "}transfer but got"},
        };
        for (Object[] c : cases) {
            OMElement request = (OMElement) c[0];
            String reply = request.getLocalName().equals("get_state") ? callTransfer(s, request) : call(s, request);
            assertTrue(reply.startsWith("fault: ") && reply.contains((String) c[1]), c[1] + " -> " + reply);
            assertArrayEquals(before, stateBytes(s), "nothing changed after: " + c[1]);
        }
    }

    private static String callTransfer(KvService s, OMElement request) {
        try {
            return s.transfer(request).toString();
        } catch (AxisFault f) {
            return "fault: " + f.getReason();
        }
    }

    @Test
    void transfersMoveBalancesAndCompareAndSetSwapsOnlyOnTheExpectedValue() throws Exception {
        KvService s = new KvService();
        assertEquals(null, KvRequests.text(s.put(KvRequests.put("alice", 10)), "previous"));
        assertEquals("10", KvRequests.text(s.put(KvRequests.put("alice", 10)), "previous"));
        OMElement t = s.transfer(KvRequests.transfer("alice", "bob", 4));
        assertEquals("6", KvRequests.text(t, "fromBalance"));
        assertEquals("4", KvRequests.text(t, "toBalance"), "bob is created by the transfer");
        OMElement miss = s.compareAndSet(KvRequests.compareAndSet("bob", 5L, 9));
        assertEquals("false", KvRequests.text(miss, "swapped"));
        assertEquals("4", KvRequests.text(miss, "current"));
        assertEquals("true", KvRequests.text(s.compareAndSet(KvRequests.compareAndSet("bob", 4L, 9)), "swapped"));
        assertEquals("true", KvRequests.text(s.compareAndSet(KvRequests.compareAndSet("new", null, 1)), "swapped"));
        assertEquals("false", KvRequests.text(s.compareAndSet(KvRequests.compareAndSet("new", null, 2)), "swapped"));
        assertEquals("9", KvRequests.text(s.get(KvRequests.get("bob")), "value"));
        assertEquals(null, KvRequests.text(s.get(KvRequests.get("nobody")), "value"));
    }
}
