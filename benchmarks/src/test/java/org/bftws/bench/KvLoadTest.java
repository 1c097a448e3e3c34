package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.bftws.samples.kv.KvRequests;
import org.bftws.samples.kv.KvService;
import org.bftws.server.Cli;
import org.junit.jupiter.api.Test;

import picocli.CommandLine.ParameterException;

/**
 * The key-value load's judgement (testbed {@code --service kv}, {@code soak --service kv}): the decided calls fix the
 * end state exactly, so an execution lost or repeated anywhere shows as a difference.
 */
class KvLoadTest {

    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace KV = F.createOMNamespace(KvService.NS, "kv");

    private static OMElement reply(String name, String... children) {
        OMElement e = F.createOMElement(name, KV);
        for (int i = 0; i < children.length; i += 2) {
            F.createOMElement(children[i], KV, e).setText(children[i + 1]);
        }
        return e;
    }

    /** The state the replicas would hold after the opening and {@code moves} (from, to, amount), and counter. */
    private static Map<String, Long> state(long counter, long[]... moves) {
        Map<String, Long> state = new TreeMap<>();
        for (int i = 0; i < KvLoad.ACCOUNTS; i++) {
            state.put(KvLoad.account(i), KvLoad.OPENING);
        }
        for (long[] m : moves) {
            state.merge(KvLoad.account((int) m[0]), -m[2], Long::sum);
            state.merge(KvLoad.account((int) m[1]), m[2], Long::sum);
        }
        state.put(KvLoad.COUNTER, counter);
        return state;
    }

    @Test
    void everyDecidedTransferAndSwappedIncrementFixesTheEndStateSoALostOrRepeatedExecutionShows() throws Exception {
        KvLoad load = new KvLoad(1);
        OMElement transfer = load.request(0, "t0-1"); // call 0 of client 0: a transfer
        assertEquals("transfer", transfer.getLocalName());
        int from = Integer.parseInt(KvRequests.text(transfer, "from").substring(4));
        int to = Integer.parseInt(KvRequests.text(transfer, "to").substring(4));
        long amount = Long.parseLong(KvRequests.text(transfer, "amount"));
        assertNull(load.problem(0, "t0-1", transfer, reply("transferResponse", "fromBalance", "1", "toBalance", "2")));
        OMElement increment = load.request(0, "t0-2");
        assertNull(load.problem(0, "t0-2", increment, reply("compareAndSetResponse", "swapped", "true", "current",
                "1")));
        OMElement refused = load.request(0, "t0-3");
        assertNull(load.problem(0, "t0-3", refused, new AxisFault("insufficient balance in acct1")),
                "a refusal every replica decides alike is a right answer and moves nothing");

        assertNull(load.difference(state(1, new long[] {from, to, amount})));
        String repeated = load.difference(state(1, new long[] {from, to, amount}, new long[] {from, to, amount}));
        assertTrue(repeated != null && repeated.contains(KvLoad.account(from)), "executed twice: " + repeated);
        assertFalse(load.difference(state(1)) == null, "a decided transfer that no replica executed");
        String counter = load.difference(state(2, new long[] {from, to, amount}));
        assertTrue(counter != null && counter.contains("1 increments swapped"), counter);
    }

    @Test
    void theSoakRunsTheEchoUnlessAskedForTheKeyValueSample() {
        assertFalse(Cli.parse(new SoakCommand()).options().kv());
        assertTrue(Cli.parse(new SoakCommand(), "--service", "kv").options().kv());
        ParameterException e = org.junit.jupiter.api.Assertions.assertThrows(ParameterException.class,
                () -> Cli.parse(new SoakCommand(), "--service", "sql").options());
        assertTrue(e.getMessage().contains("echo") && e.getMessage().contains("kv"), e.getMessage());
    }
}
