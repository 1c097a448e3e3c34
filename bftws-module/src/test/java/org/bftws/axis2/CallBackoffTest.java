package org.bftws.axis2;

import org.bftws.axis2.standalone.NodeServer;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.axis2.AxisFault;
import org.apache.axis2.client.ServiceClient;
import org.apache.axis2.context.ConfigurationContext;
import org.bftws.axis2.client.MulticastSender;
import org.bftws.rm.Backoff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call can bring its own retransmission schedule ({@link MulticastSender#BACKOFF}), which also governs the
 * CreateSequence it needs first: what PBFT's channels to other replicas use so that a crashed peer blocks a channel
 * for a second, not for the group's whole schedule (500 ms doubling eight times: about 95 s).
 */
class CallBackoffTest {

    @TempDir
    Path dir;

    @Test
    void aCallToADeadEndpointWithItsOwnShortBackoffGivesUpWithinThatScheduleNotTheDefaultOne() throws Exception {
        ConfigurationContext ctx = TestNodes.client(dir, true);
        try {
            String dead = "http://127.0.0.1:" + NodeServer.freePort() + "/axis2/services/EchoService";
            ServiceClient client = TestNodes.serviceClient(ctx, dead);
            client.getOptions().setProperty(Backoff.PROPERTY, Backoff.of(Duration.ofMillis(100), 1));
            long t0 = System.nanoTime();
            AxisFault fault = assertThrows(AxisFault.class, () -> TestNodes.call(client, TestNodes.echo("x")));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 10_000, "gave up after " + ms + " ms: " + fault.getMessage());
            assertTrue(fault.getMessage().contains("1 retransmissions"), fault.getMessage());
        } finally {
            ctx.terminate();
        }
    }
}
