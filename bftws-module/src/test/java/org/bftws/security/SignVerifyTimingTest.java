package org.bftws.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import org.apache.axiom.soap.SOAPEnvelope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * Prints what the wssec profile costs per message on this machine (no timed assertions: the figures go into the
 * report). Small echo request with WS-A and WS-RM headers, RSA-2048, after warm-up; median and p90 of each step.
 */
class SignVerifyTimingTest {
    private static final int WARMUP = 200;
    private static final int RUNS = 500;

    @TempDir
    Path dir;

    @Test
    void printsSignAndVerifyTimesAndTheShareOfAxiomToDomConversion() throws Exception {
        Deployment d = new Deployment(dir, "wssec");
        WsSecurity client = d.security("client1");
        WsSecurity replica = d.security("replica0");
        String request = Envelopes.request("http://echo.bftws.group/axis2/services/EchoService", "x".repeat(100));
        byte[] signedBytes = Envelopes.text(client.sign(Envelopes.parse(request))).getBytes();

        long[] toDom = new long[RUNS];
        long[] signAxiom = new long[RUNS];
        long[] signDom = new long[RUNS];
        long[] verifyAxiom = new long[RUNS];
        long[] verifyBytes = new long[RUNS];
        for (int i = -WARMUP; i < RUNS; i++) {
            SOAPEnvelope env = Envelopes.parse(request);
            env.build();
            long t0 = System.nanoTime();
            DomBridge.toDom(env);
            long t1 = System.nanoTime();
            client.sign(env);
            long t2 = System.nanoTime();
            Document dom = DomBridge.parse(request.getBytes());
            long t3 = System.nanoTime();
            client.sign(dom);
            long t4 = System.nanoTime();
            SOAPEnvelope signed = Envelopes.parse(new String(signedBytes));
            signed.build();
            long t5 = System.nanoTime();
            assertEquals("client1", replica.verify(signed).name());
            long t6 = System.nanoTime();
            replica.verify(signedBytes);
            long t7 = System.nanoTime();
            if (i >= 0) {
                toDom[i] = t1 - t0;
                signAxiom[i] = t2 - t1;
                signDom[i] = t4 - t3;
                verifyAxiom[i] = t6 - t5;
                verifyBytes[i] = t7 - t6;
            }
        }
        System.out.printf("wssec timing (%d runs after %d warm-up, %d-byte signed request), median / p90 ms:%n",
                RUNS, WARMUP, signedBytes.length);
        print("AXIOM -> DOM (serialise + JDK parse)", toDom);
        print("sign AXIOM envelope (to DOM, WSS4J, back)", signAxiom);
        print("sign DOM envelope (WSS4J only)", signDom);
        print("verify AXIOM envelope (to DOM, WSS4J)", verifyAxiom);
        print("verify raw bytes (JDK parse, WSS4J)", verifyBytes);
    }

    private static void print(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf("  %-45s %7.3f / %7.3f%n", what, s[s.length / 2] / 1e6, s[s.length * 9 / 10] / 1e6);
    }
}
