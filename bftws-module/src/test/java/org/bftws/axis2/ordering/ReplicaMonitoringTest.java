package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.function.Predicate;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;

import com.google.gson.JsonObject;
import org.apache.axis2.client.ServiceClient;
import org.bftws.monitoring.JmxRegistrations;
import org.bftws.monitoring.NodeMXBean;
import org.bftws.monitoring.ReplicaMXBean;
import org.bftws.axis2.monitoring.StatusHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator watches a running four-replica group through the platform MBean server and the status page on each
 * node's HTTP port: the figures follow the requests, a lost primary shows as a new view with its new primary and a
 * counted view change, and a stopped node's MBeans are gone.
 */
class ReplicaMonitoringTest {

    private static final MBeanServer JMX_SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private static ObjectName replicaName(int i) {
        return JmxRegistrations.replicaName("EchoService", "replica" + i);
    }

    private static ReplicaMXBean replica(int i) {
        return JMX.newMXBeanProxy(JMX_SERVER, replicaName(i), ReplicaMXBean.class);
    }

    /** Waits (bounded) until {@code done} holds for replica {@code i}'s MBean; the caller asserts afterwards. */
    private static ReplicaMXBean settled(int i, Predicate<ReplicaMXBean> done) throws InterruptedException {
        ReplicaMXBean r = replica(i);
        for (int t = 0; t < 400 && !done.test(r); t++) {
            Thread.sleep(50);
        }
        return r;
    }

    @Test
    void theMBeansAndTheStatusPageShowTheRunningGroupAndFollowItsRequests() throws Exception {
        ObjectName[] names = new ObjectName[4];
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "2s"))) {
            for (int i = 0; i < 4; i++) {
                names[i] = replicaName(i);
                assertTrue(JMX_SERVER.isRegistered(names[i]), names[i] + " registered while the replica runs");
                assertTrue(JMX_SERVER.isRegistered(JmxRegistrations.nodeName("replica" + i)));
                ReplicaMXBean r = replica(i);
                assertEquals("EchoService", r.getGroup());
                assertEquals("replica" + i, r.getParty());
                assertEquals("agree-execute", r.getRole());
                assertEquals(0, r.getView());
                assertEquals("replica0", r.getPrimary());
                assertEquals(i == 0, r.isSelfPrimary());
            }
            long executedBefore = replica(0).getRequestsExecuted();
            long orderedBefore = replica(0).getBatchesOrdered();

            ServiceClient client = g.client();
            for (int i = 1; i <= 5; i++) {
                BftTestGroup.call(client, BftTestGroup.append("v" + i));
            }
            // a replica that fell behind (a loaded machine) may reach the others by a state transfer instead of
            // executing each request: what every replica shows is the group's last executed sequence number
            long groupExecuted = 0;
            for (int i = 0; i < 4; i++) {
                groupExecuted = Math.max(groupExecuted, replica(i).getLastExecuted());
            }
            long target = groupExecuted;
            for (int i = 0; i < 4; i++) {
                ReplicaMXBean r = settled(i, m -> m.getLastExecuted() >= target && m.getPendingRequests() == 0);
                assertTrue(r.getLastExecuted() >= target, "replica " + i + " reached the group's last executed");
                assertTrue(r.getRequestsExecuted() >= 5 || r.getStateTransfers() >= 1,
                        "replica " + i + " executed the five requests or received them by a state transfer");
                assertTrue(r.getLastExecuted() >= 1 && r.getBatchesOrdered() >= 1, "replica " + i + " ordered");
                assertEquals(0, r.getPendingRequests());
                assertTrue(r.getStableCheckpoint() <= r.getLastExecuted(), "a checkpoint follows executions");
                assertEquals(0, r.getViewChangesStarted());
                assertEquals(0, r.getSecurityRefusals().values().stream().mapToLong(Long::longValue).sum());
            }
            assertTrue(replica(0).getRequestsExecuted() >= executedBefore + 5, "the primary executed them all");
            assertTrue(replica(0).getBatchesOrdered() > orderedBefore);
            // the raw MBean server view, as jconsole shows it: plain attributes and maps as tables
            assertEquals(0, JMX_SERVER.getAttribute(names[2], "View"));
            assertEquals("replica0", JMX_SERVER.getAttribute(names[2], "Primary"));
            TabularData refusals = (TabularData) JMX_SERVER.getAttribute(names[2], "SecurityRefusals");
            // every reason, and how refusals were answered (unsigned, or closed over the address rate)
            assertEquals(org.bftws.security.RefusalReason.values().length + 2, refusals.size());
            NodeMXBean node = JMX.newMXBeanProxy(JMX_SERVER, JmxRegistrations.nodeName("replica2"), NodeMXBean.class);
            assertTrue(node.getRmCounters().get("messages accepted") >= 5, node.getRmCounters().toString());

            int port = g.nodes[2].port();
            JsonObject status = StatusHttp.status(port);
            assertEquals("replica2", status.get("party").getAsString());
            JsonObject replica = status.getAsJsonObject("replica");
            ReplicaMXBean r2 = replica(2);
            assertEquals("EchoService", replica.get("group").getAsString());
            assertEquals(0, replica.get("view").getAsInt());
            assertEquals("replica0", replica.get("primary").getAsString());
            assertFalse(replica.get("selfPrimary").getAsBoolean());
            assertEquals(r2.getLastExecuted(), replica.get("lastExecuted").getAsLong(), "the group is idle");
            assertEquals(r2.getStableCheckpoint(), replica.get("stableCheckpoint").getAsLong());
            assertEquals(r2.getRequestsExecuted(), replica.get("requestsExecuted").getAsLong());
            assertEquals(1, replica.get("replyEntries").getAsInt(), "the one client sequence has a live entry");
            assertEquals(r2.getReplyEntries(), replica.get("replyEntries").getAsInt());
            assertEquals(r2.getStableCheckpointBytes(), replica.get("stableCheckpointBytes").getAsLong());
            assertTrue(r2.getStableCheckpoint() == 0 || r2.getStableCheckpointBytes() > 0,
                    "a replica past its first checkpoint holds that checkpoint's bytes: " + r2.getStableCheckpointBytes());
            long heapUsed = status.getAsJsonObject("node").get("heapUsedBytes").getAsLong();
            long heapMax = status.getAsJsonObject("node").get("heapMaxBytes").getAsLong();
            assertTrue(heapUsed > 0 && (heapMax < 0 || heapUsed <= heapMax), heapUsed + " of " + heapMax);
            assertEquals(r2.getBatchesOrdered(), replica.get("batchesOrdered").getAsLong());
            assertEquals(0, replica.getAsJsonObject("securityRefusals").get("MAC_MISMATCH").getAsLong());
            assertTrue(replica.getAsJsonObject("pbftDrops").has("dropped inputs"));
            assertTrue(replica.getAsJsonObject("retransmissions").has("PBFT frames retransmitted"));
            assertTrue(replica.getAsJsonObject("timings").has("view-change"));
            assertTrue(status.getAsJsonObject("node").getAsJsonObject("rmCounters").get("messages accepted")
                    .getAsLong() >= 5);

            // a keyed node says when its certificates expire, on the page and to Prometheus
            JsonObject expiry = status.getAsJsonObject("node").getAsJsonObject("certificateExpiry");
            java.time.Instant party = java.time.Instant.parse(expiry.get("party certificate").getAsString());
            assertTrue(party.isAfter(java.time.Instant.now()), expiry.toString());
            assertTrue(expiry.has("deployment CA"), expiry.toString());
            HttpResponse<String> metrics = StatusHttp.send(port, "GET", "/bftws/metrics");
            assertEquals(200, metrics.statusCode(), metrics.body());
            assertTrue(metrics.body().contains("bftws_certificate_expiry_seconds{certificate=\"party certificate\","
                    + "party=\"replica2\"} " + (double) party.getEpochSecond()), metrics.body());
            assertTrue(metrics.body().contains("bftws_replica_executing{group=\"EchoService\",party=\"replica2\"} 1.0"),
                    metrics.body());

            HttpResponse<String> other = StatusHttp.send(port, "GET", "/bftws/nothing");
            assertEquals(404, other.statusCode(), other.body());
            HttpResponse<String> post = StatusHttp.send(port, "POST", "/bftws/status");
            assertEquals(405, post.statusCode(), post.body());
            assertEquals("GET", post.headers().firstValue("Allow").orElse(""));
            // Axis2's own pages on the same port are untouched
            HttpResponse<String> services = StatusHttp.send(port, "GET", "/axis2/services/");
            assertEquals(200, services.statusCode());
            assertTrue(services.body().contains("EchoService"), services.body());
        }
        for (ObjectName n : names) {
            assertFalse(JMX_SERVER.isRegistered(n), n + " unregistered when its node stopped");
        }
    }

    @Test
    void afterThePrimaryStopsTheMBeansAndTheStatusPageShowTheNewViewItsPrimaryAndTheViewChange() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "mac", BftTestGroup.protocol(4, "1s"))) {
            ServiceClient client = g.client();
            BftTestGroup.call(client, BftTestGroup.append("before"));
            g.stop(0);
            assertFalse(JMX_SERVER.isRegistered(replicaName(0)), "the stopped primary's MBean is gone");
            assertFalse(JMX_SERVER.isRegistered(JmxRegistrations.nodeName("replica0")));
            for (int i = 2; i <= 5; i++) {
                BftTestGroup.call(client, BftTestGroup.append("v" + i));
            }
            for (int i = 1; i < 4; i++) {
                ReplicaMXBean r = settled(i, m -> m.getViewsInstalled() >= 1 && m.getRequestsExecuted() >= 5);
                assertTrue(r.getView() >= 1, "replica " + i + " left view 0");
                assertEquals("replica" + (r.getView() % 4), r.getPrimary());
                assertNotEquals("replica0", r.getPrimary(), "the stopped node is not the primary");
                assertEquals(r.getPrimary().equals("replica" + i), r.isSelfPrimary());
                assertTrue(r.getViewChangesStarted() >= 1, "replica " + i + " counted the view change it started");
                assertTrue(r.getViewsInstalled() >= 1, "replica " + i + " counted the view it entered");
                assertTrue(r.getRequestsExecuted() >= 5);
            }
            int port = g.nodes[1].port();
            HttpResponse<String> raw = StatusHttp.send(port, "GET", "/bftws/status");
            System.out.println("status of replica1 after the primary stopped: " + raw.body());
            JsonObject replica = StatusHttp.status(port).getAsJsonObject("replica");
            ReplicaMXBean r1 = replica(1);
            assertEquals(r1.getView(), replica.get("view").getAsInt());
            assertEquals(r1.getPrimary(), replica.get("primary").getAsString());
            assertTrue(replica.get("viewChangesStarted").getAsLong() >= 1);
            assertTrue(replica.get("viewsInstalled").getAsLong() >= 1);
            assertTrue(replica.getAsJsonObject("timings").getAsJsonObject("view-change").get("count").getAsLong() >= 1);

            // the node restarted in this JVM registers its MBeans again under the same names
            g.restart(0);
            assertTrue(JMX_SERVER.isRegistered(replicaName(0)), "the restarted node's MBean is back");
            assertEquals("replica0", replica(0).getParty());
        }
    }
}
