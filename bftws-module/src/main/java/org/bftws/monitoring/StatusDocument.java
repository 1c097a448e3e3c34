package org.bftws.monitoring;

import java.util.Map;

import org.bftws.metrics.Measurements;

/**
 * The status page's JSON: the figures of the node's {@link NodeMXBean} and, on a replica, of its
 * {@link ReplicaMXBean}, under the same names (attribute names with a lower-case first letter), read once each.
 * <pre>
 * {"party":"replica1","node":{...},"replica":{"group":"EchoService","view":1,"primary":"replica1",...,
 *  "timings":{"view-change":{"count":1,"meanMs":..,"p50Ms":..,"maxMs":..,"lastMs":..},...}}}
 * </pre>
 * {@code replica} is null on a node that is no replica (or whose replica role has not started yet).
 */
public final class StatusDocument {

    private StatusDocument() {
    }

    public static String of(NodeMXBean node, ReplicaMXBean replica, Measurements timings) {
        JsonWriter json = new JsonWriter().beginObject();
        json.member("party", node.getParty());
        json.beginObject("node")
                .member("pendingRequests", node.getPendingRequests())
                .member("heldExchanges", node.getHeldExchanges())
                .member("deliveredRequests", node.getDeliveredRequests())
                .member("rmCounters", node.getRmCounters())
                .member("securityRefusals", node.getSecurityRefusals())
                .member("queuedConnections", node.getQueuedConnections())
                .member("oldestQueuedConnectionMillis", node.getOldestQueuedConnectionMillis())
                .member("connectionCounters", node.getConnectionCounters())
                .member("heapUsedBytes", node.getHeapUsedBytes())
                .member("heapMaxBytes", node.getHeapMaxBytes())
                .member("tlsCounters", node.getTlsCounters());
        json.beginObject("certificateExpiry");
        node.getCertificateExpiry().forEach(json::member);
        json.endObject().endObject();
        if (replica == null) {
            json.nullMember("replica");
        } else {
            replica(json.beginObject("replica"), replica, timings).endObject();
        }
        return json.endObject().toString();
    }

    /**
     * The page's HTTP status: 200, or 503 while the replica executes nothing ({@link ReplicaMXBean#isExecuting()}),
     * so that a load balancer's or a monitor's health check sees it without reading the document.
     */
    public static int httpStatus(ReplicaMXBean replica) {
        return replica != null && !replica.isExecuting() ? 503 : 200;
    }

    private static JsonWriter replica(JsonWriter json, ReplicaMXBean r, Measurements timings) {
        json.member("group", r.getGroup())
                .member("party", r.getParty())
                .member("nodeId", r.getNodeId())
                .member("role", r.getRole())
                .member("view", r.getView())
                .member("primary", r.getPrimary())
                .member("selfPrimary", r.isSelfPrimary())
                .member("executing", r.isExecuting())
                .member("notExecuting", r.getNotExecuting())
                .member("lastExecuted", r.getLastExecuted())
                .member("stableCheckpoint", r.getStableCheckpoint())
                .member("stableCheckpointBytes", r.getStableCheckpointBytes())
                .member("replyEntries", r.getReplyEntries())
                .member("batchesOrdered", r.getBatchesOrdered())
                .member("requestsExecuted", r.getRequestsExecuted())
                .member("pendingRequests", r.getPendingRequests())
                .member("executionQueue", r.getExecutionQueue())
                .member("viewChangesStarted", r.getViewChangesStarted())
                .member("viewsInstalled", r.getViewsInstalled())
                .member("stateTransfers", r.getStateTransfers())
                .member("divergedCheckpoints", r.getDivergedCheckpoints())
                .member("retransmissions", r.getRetransmissions())
                .member("securityRefusals", r.getSecurityRefusals())
                .member("pbftDrops", r.getPbftDrops());
        json.beginObject("timings");
        for (Map.Entry<Measurements.Kind, Measurements.Summary> e
                : timings.summaries().entrySet()) {
            Measurements.Summary s = e.getValue();
            json.beginObject(e.getKey().label())
                    .member("count", s.count());
            if (s.count() > 0) {
                json.member("meanMs", s.meanMs()).member("p50Ms", s.p50Ms()).member("maxMs", s.maxMs())
                        .member("lastMs", s.lastMs());
            }
            json.endObject();
        }
        json.endObject();
        return json.member("counters", r.getCounters());
    }
}
