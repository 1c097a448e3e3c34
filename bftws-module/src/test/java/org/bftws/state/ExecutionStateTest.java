package org.bftws.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** The application state an executing replica checkpoints: the service's state and its nested-call numbering. */
class ExecutionStateTest {

    static final byte[] SERVICE = "<state><entry>a</entry></state>".getBytes(StandardCharsets.UTF_8);

    @Test
    void aCheckpointGivesBackTheServicesStateAndTheNumberingOfEveryVirtualSequence() {
        Map<String, Long> numbering = Map.of("urn:seq:b", 7L, "urn:seq:a", 120L);
        ExecutionState.Parts parts = ExecutionState.decode(ExecutionState.encode(numbering, SERVICE));
        assertArrayEquals(SERVICE, parts.serviceState());
        assertEquals(new TreeMap<>(numbering), parts.nestedNumbering());
    }

    @Test
    void replicasWithTheSameNumberingWriteTheSameBytesWhateverTheOrderTheyLearnedItIn() {
        Map<String, Long> one = new HashMap<>();
        Map<String, Long> other = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            one.put("urn:seq:" + i, (long) i);
        }
        for (int i = 19; i >= 0; i--) {
            other.put("urn:seq:" + i, (long) i);
        }
        assertArrayEquals(ExecutionState.encode(one, SERVICE), ExecutionState.encode(other, SERVICE),
                "the checkpoint digest must not depend on hash order");
    }

    @Test
    void aStateWrittenBeforeTheNumberingWasCheckpointedIsTheServicesStateWithNoNumbering() {
        ExecutionState.Parts parts = ExecutionState.decode(SERVICE);
        assertArrayEquals(SERVICE, parts.serviceState());
        assertEquals(Map.of(), parts.nestedNumbering());
        assertArrayEquals(new byte[0], ExecutionState.decode(new byte[0]).serviceState());
    }

    @Test
    void aMarkedButCutOrForgedStateIsRefusedWithAReason() {
        byte[] whole = ExecutionState.encode(Map.of("urn:seq:a", 3L), SERVICE);
        assertThrows(IllegalArgumentException.class, () -> ExecutionState.decode(Arrays.copyOf(whole, 12)));
        byte[] hugeCount = ExecutionState.encode(Map.of(), SERVICE);
        hugeCount[9] = 0x7f; // the count's first byte, after the 9-byte marker
        assertThrows(IllegalArgumentException.class, () -> ExecutionState.decode(hugeCount));
        byte[] negative = ExecutionState.encode(Map.of("urn:seq:a", 0L), SERVICE);
        int numberAt = 9 + 4 + 2 + "urn:seq:a".length();
        negative[numberAt] = (byte) 0x80; // the number's sign bit
        assertThrows(IllegalArgumentException.class, () -> ExecutionState.decode(negative));
    }
}
