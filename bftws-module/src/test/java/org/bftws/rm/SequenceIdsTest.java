package org.bftws.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import org.junit.jupiter.api.Test;

class SequenceIdsTest {

    private static final URI GROUP = URI.create("http://echo.bftws.group/axis2/services/EchoService");
    private static final String UUID_TEXT = "6f1c1b1e-8f4e-4c3a-9a57-0b1f8b7d2c11";

    @Test
    void aSequenceIdentifierNamesThePartyThatCreatedItAndNoOther() {
        String id = SequenceIds.derive(UUID_TEXT, GROUP, "client1");
        assertTrue(SequenceIds.ownedBy(id, "client1"));
        assertFalse(SequenceIds.ownedBy(id, "client2"));
        assertFalse(SequenceIds.ownedBy(id, "replica1"));
        assertFalse(SequenceIds.ownedBy(id, ""));
        assertTrue(SequenceIds.ownedBy(id.toUpperCase().replace("URN:UUID:", "urn:uuid:"), "client1"),
                "upper-case hex digits name the same identifier");
    }

    @Test
    void aVersion7ClientUuidGivesAnIdentifierThatCarriesItsCreationTimeAndStillNamesItsOwner() {
        String uuid = SequenceIds.newClientUuid(1_764_000_000_123L);
        assertEquals(java.util.OptionalLong.of(1_764_000_000_123L), SequenceIds.clientCreationTime(uuid));
        String id = SequenceIds.derive(uuid, GROUP, "client1");
        assertTrue(id.startsWith("urn:bftws:sequence:1764000000123:urn:uuid:"), id);
        assertEquals(java.util.OptionalLong.of(1_764_000_000_123L), SequenceIds.createdAt(id));
        assertTrue(SequenceIds.ownedBy(id, "client1"));
        assertFalse(SequenceIds.ownedBy(id, "client2"));
        assertTrue(SequenceIds.derivedFrom(id, uuid, GROUP));
        assertFalse(SequenceIds.derivedFrom(id.replace(":1764000000123:", ":1764000000124:"), uuid, GROUP),
                "a client takes no identifier with another creation time than its UUID's");
        assertNotEquals(id, SequenceIds.derive(SequenceIds.newClientUuid(1_764_000_000_123L), GROUP, "client1"),
                "two sequences made in the same millisecond differ");
    }

    @Test
    void identifiersWithoutACreationTimeOrMalformedOnesHaveNone() {
        assertTrue(SequenceIds.createdAt(SequenceIds.derive(UUID_TEXT, GROUP, "client1")).isEmpty(), "a version 4 UUID");
        assertTrue(SequenceIds.createdAt("urn:bftws:sequence:12:not-a-uuid").isEmpty());
        assertTrue(SequenceIds.createdAt("urn:bftws:sequence:-5:urn:uuid:" + UUID_TEXT).isEmpty());
        assertTrue(SequenceIds.createdAt("urn:bftws:sequence:99999999999999999999999:urn:uuid:" + UUID_TEXT).isEmpty());
        assertTrue(SequenceIds.createdAt(null).isEmpty());
    }

    @Test
    void twoPartiesUsingTheSameClientUuidGetDifferentSequences() {
        assertNotEquals(SequenceIds.derive(UUID_TEXT, GROUP, "client1"), SequenceIds.derive(UUID_TEXT, GROUP, "client2"));
    }

    @Test
    void theClientRecognisesItsIdentifierWithoutKnowingHowTheReplicasNameIt() {
        String id = SequenceIds.derive("urn:uuid:" + UUID_TEXT.toUpperCase(), GROUP, "CN the client never sees");
        assertTrue(SequenceIds.derivedFrom(id, UUID_TEXT, GROUP));
        assertFalse(SequenceIds.derivedFrom(id, "another-uuid", GROUP));
        assertFalse(SequenceIds.derivedFrom(id, UUID_TEXT, URI.create("http://other.group/EchoService")));
    }

    @Test
    void identifiersAreRfc4122UuidsOfTheCustomVersion() {
        String pattern = "urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";
        assertTrue(SequenceIds.derive(UUID_TEXT, GROUP, "client1").matches(pattern));
        assertTrue(SequenceIds.random("client1").matches(pattern));
    }

    @Test
    void aDrawnIdentifierForAPlainWsrmPeerStillNamesItsOwner() {
        String a = SequenceIds.random("cxf-client");
        assertTrue(SequenceIds.ownedBy(a, "cxf-client"));
        assertFalse(SequenceIds.ownedBy(a, "client1"));
        assertNotEquals(a, SequenceIds.random("cxf-client"));
    }

    @Test
    void anIdentifierThatIsNotAUuidUrnIsOwnedByNobody() {
        assertFalse(SequenceIds.ownedBy("urn:uuid:seq-1", "client1"));
        assertFalse(SequenceIds.ownedBy("http://example.org/seq", "client1"));
        assertFalse(SequenceIds.ownedBy(null, "client1"));
        assertEquals(false, SequenceIds.derivedFrom("urn:uuid:not-a-uuid", UUID_TEXT, GROUP));
    }
}
