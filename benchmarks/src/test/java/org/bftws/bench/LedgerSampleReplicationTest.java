package org.bftws.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.client.Options;
import org.apache.axis2.client.ServiceClient;
import org.bftws.axis2.client.ReplyVoting;
import org.bftws.config.SecurityProfile;
import org.bftws.core.ReplyPolicy;
import org.bftws.samples.ledger.LedgerServiceArchive;
import org.junit.jupiter.api.Test;

/**
 * The POJO sample (samples/ledger-service: a plain Java class behind Axis2's RPCMessageReceiver, services.xml and no
 * WSDL, its state a String) replicated as a user deploys it: four replica JVMs started as {@code ./bftws replica
 * --services DIR} starts them, over real HTTP on loopback, called through the group endpoint. Its get_state result
 * ({@code <return>}) reaches set_state ({@code <state>}) with no help from the service.
 */
class LedgerSampleReplicationTest {

    static final String NS = "http://bftws.org/samples/ledger";
    static final ReplicaGroup.ArchivedService LEDGER = new ReplicaGroup.ArchivedService("LedgerService",
            "http://ledger.bftws.group/axis2/services/LedgerService", LedgerServiceArchive::writeTo);
    private static final OMFactory F = OMAbstractFactory.getOMFactory();
    private static final OMNamespace L = F.createOMNamespace(NS, "l");

    private final Path dir = Path.of("target", "ledger-sample",
            java.time.LocalDateTime.now().format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
            .toAbsolutePath();
    private final Map<String, Long> expected = new TreeMap<>();

    @Test
    void aPojoLedgerOnFourReplicasKeepsExactBalancesThroughThePrimarysCrashAndAnEmptyReplicaCatchesUpByStateTransfer()
            throws Exception {
        try (ReplicaGroup group = ReplicaGroup.start(new ReplicaGroup.Settings(dir.resolve("run"),
                Path.of("target", "testbed-keys"), SecurityProfile.MAC, ProcessFaultsTest.PROTOCOL, false, List.of(),
                "256m", null, LEDGER))) {
            AppendClients node = AppendClients.open(group.replicasXml(), TestbedDeployment.CLIENT,
                    dir.resolve("client"), LEDGER.endpoint(), 60_000);
            try {
                ServiceClient client = new ServiceClient(node.context(), null);
                Options options = new Options();
                options.setTo(new EndpointReference(LEDGER.endpoint()));
                options.setTimeOutInMilliSeconds(60_000);
                client.setOptions(options);

                deposits(client, 0, 100);
                int primary = group.primary();
                group.crash(primary);
                deposits(client, 100, 120); // the others change view and go on
                assertTrue(group.view() > 0, "a new view after the primary's crash");
                group.restart(primary, false); // empty: no data directory, a new service instance
                deposits(client, 120, 150); // checkpoints every 8: it learns it is behind and fetches the state
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (Long.parseLong(group.stats(primary).getOrDefault("state-transfers", "0")) < 1
                        && System.nanoTime() < deadline) {
                    assertEquals(expected.get("acct0"), balance(client, "acct0"));
                    Thread.sleep(200);
                }
                Map<String, String> stats = group.stats(primary);
                assertTrue(Long.parseLong(stats.getOrDefault("state-transfers", "0")) >= 1,
                        ReplicaGroup.name(primary) + " caught up by state transfer: " + stats);
                for (int i = 0; i < ReplicaGroup.SIZE; i++) {
                    assertFalse(group.stats(i).containsKey("not-executing-since"), group.stats(i).toString());
                }
                for (Map.Entry<String, Long> e : expected.entrySet()) {
                    assertEquals(e.getValue(), balance(client, e.getKey()), e.getKey());
                }
                assertEquals(render(expected), stateOnEveryReplica(client));
            } finally {
                node.close();
            }
        }
    }

    /** Deposits {@code i + 1} into acct(i mod 5) for i in [from, to), checking every new balance. */
    private void deposits(ServiceClient client, int from, int to) throws AxisFault {
        for (int i = from; i < to; i++) {
            String account = "acct" + (i % 5);
            long balance = expected.merge(account, (long) i + 1, Long::sum);
            OMElement request = F.createOMElement("deposit", L);
            F.createOMElement("account", L, request).setText(account);
            F.createOMElement("amount", L, request).setText(Long.toString(i + 1));
            assertEquals(Long.toString(balance), call(client, "urn:deposit", request), "deposit " + i);
        }
    }

    private static long balance(ServiceClient client, String account) throws AxisFault {
        OMElement request = F.createOMElement("balance", L);
        F.createOMElement("account", L, request).setText(account);
        return Long.parseLong(call(client, "urn:balance", request));
    }

    /**
     * get_state through the group with the ALL policy on every attempt: the call succeeds only when all 3f+1 replicas
     * return the same state. A replica still catching up makes an attempt fail, and the next one waits for it; no
     * attempt ever falls back to f+1 matching replies, so replicas that disagree fail the test.
     */
    private static String stateOnEveryReplica(ServiceClient client) throws Exception {
        AxisFault last = null;
        try {
            for (int attempt = 0; attempt < 30; attempt++) {
                client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, ReplyPolicy.ALL);
                try {
                    return call(client, "urn:get_state", F.createOMElement("get_state", L));
                } catch (AxisFault e) {
                    last = e;
                    Thread.sleep(1_000);
                }
            }
            throw last;
        } finally {
            client.getOptions().setProperty(ReplyVoting.REPLY_POLICY, ReplyPolicy.WEAK_QUORUM);
        }
    }

    /** The text of the reply's {@code return} element. */
    private static String call(ServiceClient client, String action, OMElement request) throws AxisFault {
        client.getOptions().setAction(action);
        OMElement reply = client.sendReceive(request);
        reply.build();
        OMElement result = reply.getFirstElement();
        return result == null ? "" : result.getText();
    }

    private static String render(Map<String, Long> accounts) {
        StringBuilder s = new StringBuilder();
        accounts.forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
        return s.toString();
    }
}
