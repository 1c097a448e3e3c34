package org.bftws.axis2.ordering;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.description.AxisService;
import org.bftws.axis2.delivery.ServiceDelivery;
import org.bftws.rm.ReplyCache.CachedReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica's requests to its own service (the checkpoint's get_state, state transfer's set_state) are answered
 * locally and never leave the node: their replies are not signed, which for a large state cost seconds per
 * checkpoint. Replies to clients are signed as before.
 */
class LocalRepliesTest {

    @TempDir
    Path dir;

    @Test
    void theReplyToAReplicasOwnGetStateIsNotSignedWhileClientRepliesAre() throws Exception {
        try (BftTestGroup g = BftTestGroup.start(dir, "wssec", BftTestGroup.protocol(128, "5s"))) {
            var client = g.client();
            BftTestGroup.call(client, BftTestGroup.append("x"));
            String clientReply = client.getLastOperationContext()
                    .getMessageContext(org.apache.axis2.wsdl.WSDLConstants.MESSAGE_LABEL_IN_VALUE).getEnvelope()
                    .toString();
            assertTrue(clientReply.contains("Signature"), "a client's reply is signed: " + clientReply);

            ConfigurationContext ctx = g.context(0);
            AxisService service = ctx.getAxisConfiguration().getService("EchoService");
            MessageContext getState = new RequestContexts(ctx, service).ownRequest("get_state", null);
            CachedReply reply = new ServiceDelivery().deliver(getState);
            assertNotNull(reply);
            String envelope = new String(reply.envelope(), StandardCharsets.UTF_8);
            assertTrue(envelope.contains("get_stateResponse"), envelope);
            assertFalse(envelope.contains("Signature"), "the local get_state reply is not signed: " + envelope);
        }
    }
}
