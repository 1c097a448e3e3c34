package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.axis2.Constants;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.engine.Handler;
import org.apache.axis2.engine.Phase;
import org.apache.axis2.handlers.AbstractHandler;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A signed message goes out as the bytes it was signed as, and only when nothing can change it after signing. */
class SignedEnvelopeTest {
    private static final String TO = "http://echo.bftws.group/axis2/services/EchoService";
    @TempDir
    static Path dir;
    static Deployment deployment;

    @BeforeAll
    static void keygen() {
        deployment = new Deployment(dir, "wssec");
    }

    private static MessageContext outgoing(boolean signedLast) throws Exception {
        MessageContext mc = new MessageContext();
        mc.setEnvelope(Envelopes.parse(Envelopes.request(TO, "pay 10")));
        mc.setProperty(SignedEnvelope.SIGNED_LAST, signedLast);
        return mc;
    }

    @Test
    void theBytesSentAreTheSignedMessageAndTheEnvelopeReadsAsTheSameMessage() throws Exception {
        MessageContext mc = outgoing(true);
        deployment.security("client1").signMessage(mc);

        byte[] bytes = SignedEnvelope.bytesToSend(mc).orElseThrow();
        assertEquals("client1", deployment.security("replica0").verify(bytes).name());
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("<soapenv:Envelope") && text.contains("pay 10"), text);
        // whoever reads the envelope after signing reads the signed message, parsed from those bytes
        assertEquals("client1", deployment.security("replica0").verify(Envelopes.parse(Envelopes.text(mc.getEnvelope()))).name());
    }

    @Test
    void anEnvelopeSetAfterSigningIsSentInsteadOfTheBytes() throws Exception {
        MessageContext mc = outgoing(true);
        deployment.security("client1").signMessage(mc);
        mc.setEnvelope(Envelopes.parse(Envelopes.request(TO, "pay 99")));
        assertTrue(SignedEnvelope.bytesToSend(mc).isEmpty());
    }

    @Test
    void noBytesAreKeptWhenAHandlerMayStillRunOrTheMessageIsNotUtf8() throws Exception {
        MessageContext notLast = outgoing(false);
        deployment.security("client1").signMessage(notLast);
        assertTrue(SignedEnvelope.bytesToSend(notLast).isEmpty());
        assertEquals("client1", deployment.security("replica0").verify(notLast.getEnvelope()).name(), "still signed");

        MessageContext latin1 = outgoing(true);
        latin1.setProperty(Constants.Configuration.CHARACTER_SET_ENCODING, "ISO-8859-1");
        deployment.security("client1").signMessage(latin1);
        assertTrue(SignedEnvelope.bytesToSend(latin1).isEmpty());
    }

    @Test
    void onlyTheLastHandlerOfTheFlowRunsLast() {
        Handler addressing = handler("addressing");
        Handler security = handler("security");
        Phase messageOut = phase("MessageOut", addressing);
        Phase securityPhase = phase("Security", security);
        Phase empty = phase("Empty");
        MessageContext mc = new MessageContext();
        mc.setExecutionChain(new ArrayList<>(List.of(messageOut, securityPhase, empty)));

        mc.setCurrentHandlerIndex(1);
        assertTrue(SignedEnvelope.runsLast(mc, security), "last in its phase, later phases empty");
        assertFalse(SignedEnvelope.runsLast(mc, addressing), "not the handler of the running phase's end");

        empty.addHandler(handler("logging"));
        assertFalse(SignedEnvelope.runsLast(mc, security), "a later phase has a handler");

        MessageContext sameChainMore = new MessageContext();
        Phase crowded = phase("Security", security, handler("after"));
        sameChainMore.setExecutionChain(new ArrayList<>(List.of(messageOut, crowded)));
        sameChainMore.setCurrentHandlerIndex(1);
        assertFalse(SignedEnvelope.runsLast(sameChainMore, security), "another handler follows in its phase");

        mc.setExecutionChain(null);
        assertFalse(SignedEnvelope.runsLast(mc, security), "outside a flow");
    }

    private static Phase phase(String name, Handler... handlers) {
        Phase p = new Phase(name);
        for (Handler h : handlers) {
            p.addHandler(h);
        }
        return p;
    }

    private static Handler handler(String name) {
        AbstractHandler h = new AbstractHandler() {
            @Override
            public InvocationResponse invoke(MessageContext msgContext) {
                return InvocationResponse.CONTINUE;
            }
        };
        org.apache.axis2.description.HandlerDescription d = new org.apache.axis2.description.HandlerDescription(name);
        h.init(d);
        return h;
    }
}
