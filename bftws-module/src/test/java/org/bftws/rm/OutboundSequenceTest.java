package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The client's side of a sequence: which acknowledgements it accepts. */
class OutboundSequenceTest {

    @Test
    void aTerminateSequenceNumberedAsTheNextMessageMayBeAcknowledgedButNoNumberBeyondIt() {
        OutboundSequence s = new OutboundSequence("urn:s", "urn:uuid:c");
        s.nextMessageNumber();
        assertThrows(IllegalArgumentException.class, () -> s.acknowledged("r0", List.of(new AckRanges.Range(1, 2))),
                "message 2 was never sent");
        assertEquals(2, s.terminateNumbered());
        assertTrue(s.isTerminated());
        assertEquals(1, s.lastMessageNumber(), "the last application message stays 1 (TerminateSequence's LastMsgNumber)");
        s.acknowledged("r0", List.of(new AckRanges.Range(1, 2)));
        assertTrue(s.isAcknowledged("r0", 2), "the replicas executed the TerminateSequence as message 2");
        assertThrows(IllegalArgumentException.class, () -> s.acknowledged("r0", List.of(new AckRanges.Range(1, 3))));
    }

    @Test
    void anUnnumberedTerminateSequenceLeavesTheLimitAtTheLastMessage() {
        OutboundSequence s = new OutboundSequence("urn:s", "urn:uuid:c");
        s.nextMessageNumber();
        s.terminate();
        assertThrows(IllegalArgumentException.class, () -> s.acknowledged("r0", List.of(new AckRanges.Range(1, 2))));
    }
}
