package org.bftws.axis2;

import org.bftws.axis2.node.BftwsNode;
import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.OutboundSequence;
import org.bftws.rm.SequenceIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WS-RM-only mode through replicas.xml: the echo sample, deployed unchanged, belongs to a group of one node. The
 * client addresses the group endpoint (a URL that resolves nowhere); the MulticastSender maps it to the node, and
 * both sides derive the sequence identifier from the client's UUID and the group endpoint.
 */
class GroupEndpointTest {

    private static final String GROUP = "http://echo.bftws.group/axis2/services/EchoService";

    @TempDir
    Path dir;

    @Test
    void aClientAddressingTheGroupEndpointOfAOneNodeGroupGetsPlainWsrmWithTheGroupDerivedSequenceId()
            throws Exception {
        int port = NodeServer.freePort();
        Path replicas = dir.resolve("replicas.xml");
        Files.writeString(replicas, """
                <replicas xmlns="urn:bftws:replicas:1">
                  <group service="EchoService" endpoint="%s" f="0">
                    <security profile="none"/>
                    <node id="0" name="solo" serviceEndpoint="http://127.0.0.1:%d/axis2/services/EchoService"
                          controlEndpoint="http://127.0.0.1:%d/axis2/services/BftControl"/>
                  </group>
                </replicas>
                """.formatted(GROUP, port, port));
        System.setProperty("bftws.replicasConfig", replicas.toString());
        try (NodeServer node = NodeServer.start(TestNodes.repository(dir.resolve("server"), true),
                TestNodes.AXIS2_XML, port)) {
            ConfigurationContext ctx = TestNodes.client(dir, true);
            ServiceClient client = TestNodes.serviceClient(ctx, GROUP);
            for (int i = 1; i <= 3; i++) {
                assertEquals(Integer.toString(i), TestNodes.child(TestNodes.call(client, TestNodes.append("g" + i)),
                        "count"));
            }
            OutboundSequence seq = (OutboundSequence) client.getLastOperationContext()
                    .getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE).getProperty(MulticastSender.SEQUENCE);
            assertTrue(SequenceIds.derivedFrom(seq.id(), seq.clientUuid(), URI.create(GROUP)), seq.id());
            assertEquals(3, BftwsNode.of(node.context()).destination().deliveredCount());
            ctx.terminate();
        } finally {
            System.clearProperty("bftws.replicasConfig");
        }
    }
}
