package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import org.junit.jupiter.api.Test;

class InboundSequenceTest {

    private static final URI GROUP = URI.create("http://echo.bftws.group/axis2/services/EchoService");

    @Test
    void everyReplicaDerivesTheSameSequenceIdFromTheClientUuidAndGroupEndpoint() throws Exception {
        String uuid = "6f1c1b1e-8f4e-4c3a-9a57-0b1f8b7d2c11";
        InboundSequence a = new InboundSequences(10, 16).create(uuid, GROUP, null, "EchoService", "client1");
        InboundSequence b = new InboundSequences(10, 16).create(uuid.toUpperCase(), GROUP, null, "EchoService",
                "client1");
        assertEquals(a.id(), b.id());
        assertEquals(SequenceIds.derive("urn:uuid:" + uuid, GROUP, "client1"), a.id());
        assertTrue(a.id().matches("urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), a.id());
        assertNotEquals(a.id(), SequenceIds.derive(uuid, URI.create("http://other.group/EchoService"), "client1"));
    }

    @Test
    void aRetransmittedCreateSequenceGetsTheSameSequenceBack() throws Exception {
        InboundSequences all = new InboundSequences(10, 16);
        InboundSequence first = all.create("u-1", GROUP, null, "EchoService", "client1");
        assertSame(first, all.create("u-1", GROUP, null, "EchoService", "client1"));
        assertEquals(1, all.size());
    }

    @Test
    void aCreateSequenceWithoutUuidGetsAFreshId() throws Exception {
        InboundSequences all = new InboundSequences(10, 16);
        assertNotEquals(all.create(null, GROUP, null, "S", "client1").id(),
                all.create(null, GROUP, null, "S", "client1").id());
    }

    @Test
    void theNumberOfLiveSequencesIsBoundedAndTerminatedOnesAreForgotten() throws Exception {
        InboundSequences all = new InboundSequences(2, 16);
        InboundSequence a = all.create("a", GROUP, null, "S", "client1");
        all.create("b", GROUP, null, "S", "client1");
        CreateSequenceRefused refused = assertThrows(CreateSequenceRefused.class,
                () -> all.create("c", GROUP, null, "S", "client1"));
        assertTrue(refused.getMessage().contains("maximum of 2"));
        all.terminate(a.id());
        assertTrue(all.find(a.id()).isEmpty());
        all.create("c", GROUP, null, "S", "client1");
    }

    @Test
    void onePartyHoldsAtMostItsLimitOfSequencesAndOthersStillGetTheirs() throws Exception {
        InboundSequences all = new InboundSequences(100, 16);
        InboundSequence first = all.create("h-1", GROUP, null, "S", "hostile", 2);
        all.adopt(SequenceIdsFor.derived("h-2", "hostile"), "S", "hostile", 2);
        CreateSequenceRefused refused = assertThrows(CreateSequenceRefused.class,
                () -> all.create("h-3", GROUP, null, "S", "hostile", 2));
        assertTrue(refused.overPartyLimit() && refused.getMessage().contains("hostile already holds its maximum of 2"),
                refused.getMessage());
        assertThrows(CreateSequenceRefused.class,
                () -> all.adopt(SequenceIdsFor.derived("h-4", "hostile"), "S", "hostile", 2));
        assertSame(first, all.create("h-1", GROUP, null, "S", "hostile", 2), "a retransmitted one is not new");
        all.create("c-1", GROUP, null, "S", "client1", 2);
        all.terminate(first.id());
        all.create("h-3", GROUP, null, "S", "hostile", 2);
    }

    /** A sequence identifier a replica derives for a client's UUID at the test's group endpoint. */
    private static final class SequenceIdsFor {
        static String derived(String uuid, String owner) {
            return org.bftws.rm.SequenceIds.derive(uuid, GROUP, owner);
        }
    }

    @Test
    void duplicatesAreToldApartByWhetherTheyWereDelivered() throws Exception {
        InboundSequence s = new InboundSequences(10, 4).create("u", GROUP, null, "S", "client1");
        assertEquals(Arrival.NEW, s.accept(1));
        assertEquals(Arrival.DUPLICATE_PENDING, s.accept(1));
        s.delivered(1);
        assertEquals(Arrival.DUPLICATE_DELIVERED, s.accept(1));
        assertEquals(Arrival.DUPLICATE_DELIVERED, s.peek(1));
    }

    @Test
    void messagesTooFarAheadOfDeliveryAreRefusedSoBuffersStayBounded() throws Exception {
        InboundSequence s = new InboundSequences(10, 4).create("u", GROUP, null, "S", "client1");
        assertEquals(Arrival.NEW, s.accept(4));
        assertEquals(Arrival.BEYOND_WINDOW, s.accept(5));
        assertEquals(Arrival.NEW, s.accept(1));
        s.delivered(1);
        assertEquals(Arrival.NEW, s.accept(5));
    }

    @Test
    void deliveryMustFollowMessageNumbers() throws Exception {
        InboundSequence s = new InboundSequences(10, 4).create("u", GROUP, null, "S", "client1");
        s.accept(1);
        s.accept(2);
        assertThrows(IllegalStateException.class, () -> s.delivered(2));
    }

    @Test
    void aClosedSequenceRefusesNewMessagesButStillRecognisesDuplicates() throws Exception {
        InboundSequence s = new InboundSequences(10, 4).create("u", GROUP, null, "S", "client1");
        s.accept(1);
        s.close();
        assertEquals(Arrival.CLOSED, s.accept(2));
        assertEquals(Arrival.DUPLICATE_PENDING, s.accept(1));
        assertTrue(s.acknowledgement().closed());
    }
}
