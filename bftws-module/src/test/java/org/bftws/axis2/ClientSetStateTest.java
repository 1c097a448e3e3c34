package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.bftws.axis2.RawSequenceRequests.manager;
import static org.bftws.axis2.RawSequenceRequests.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMNamespace;
import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.samples.echo.EchoService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * set_state replaces a service's whole state and belongs to state transfer: a client that calls it through the group
 * (as a WSDL-generated client or the gateway could, since the WSDL lists it) gets a fault every correct replica
 * decides alike, and no replica's state changes. The request is ordered and answered like any other, so the client's
 * sequence goes on.
 */
class ClientSetStateTest {

    @TempDir
    Path dir;

    @Test
    void aClientsSetStateIsRefusedAlikeByEveryReplicaAndReplacesNothing() throws Exception {
        int[] p = NodeServer.freePorts(4);
        List<String> endpoints = new ArrayList<>();
        for (int port : p) {
            endpoints.add(EchoReplicas.endpoint(port));
        }
        try (EchoReplicas group = new EchoReplicas(dir, "mac", "clientTimeout=\"5s\" viewChangeTimeout=\"10s\"",
                endpoints)) {
            List<ConfigurationContext> replicas = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                replicas.add(group.startNode(i, p[i], null));
            }
            ServiceClient client = TestNodes.serviceClient(group.client(), EchoReplicas.GROUP);
            assertEquals("1", TestNodes.child(TestNodes.call(client, TestNodes.append("kept")), "count"));

            OMFactory f = OMAbstractFactory.getOMFactory();
            OMNamespace e = f.createOMNamespace(EchoService.NS, "e");
            OMElement set = f.createOMElement("set_state", e); // an empty state: it would wipe "kept"
            f.createOMElement("state", e, set);
            AxisFault refused = assertThrows(AxisFault.class, () -> TestNodes.call(client, set));
            assertTrue(refused.getMessage().contains("set_state belongs to the replicas' state transfer"),
                    refused.getMessage());

            assertEquals("2", TestNodes.child(TestNodes.call(client, TestNodes.append("next")), "count"),
                    "the state still holds 'kept', and the sequence goes on after the refusal");
            // the most any replica executed: a call returns on f+1 replies, so one replica may still be behind
            long executed = replicas.stream().mapToLong(r -> manager(r).lastExecuted()).max().orElseThrow();
            for (ConfigurationContext r : replicas) {
                waitFor(() -> manager(r).lastExecuted() >= executed); // a call returns on f+1 replies
                assertEquals(executed, manager(r).lastExecuted());
            }
        }
    }
}
