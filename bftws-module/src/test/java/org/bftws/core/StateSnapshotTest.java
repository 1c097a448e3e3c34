package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A state snapshot is an immutable value whose megabytes are not copied each time someone reads them. */
class StateSnapshotTest {

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void aCallerThatKeepsItsArrayCannotChangeTheSnapshotMadeFromIt() {
        byte[] mine = bytes(100);
        StateSnapshot s = new StateSnapshot(10, mine, List.of(), 1);
        mine[0] = 42;
        assertEquals(0, s.state().get(0));
        assertArrayEquals(bytes(100), s.stateCopy());
    }

    @Test
    void aReaderGetsAReadOnlyViewItCannotWriteThrough() {
        StateSnapshot s = new StateSnapshot(10, bytes(100), List.of(), 1);
        ByteBuffer view = s.state();
        assertTrue(view.isReadOnly());
        assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte) 7));
        assertThrows(ReadOnlyBufferException.class, view::array);
        byte[] copy = s.stateCopy();
        copy[0] = 7;
        assertEquals(0, s.state().get(0));
    }

    @Test
    void readingTheStateDoesNotCopyItAndReadersDoNotDisturbEachOther() {
        byte[] fresh = bytes(1000);
        StateSnapshot s = StateSnapshot.handingOver(10, fresh, List.of(), 1);
        // the handed-over array is the snapshot's own memory: no copy on construction ...
        assertSame(fresh, s.sharedBytes());
        ByteBuffer a = s.state();
        ByteBuffer b = s.state();
        // ... nor on reading: a write to that memory (which no caller may make) shows in every view
        fresh[5] = 99;
        assertEquals(99, a.get(5));
        assertEquals(99, b.get(5));
        a.position(500);
        assertEquals(0, b.position());
        assertEquals(1000, s.state().remaining());
        assertEquals(1000, s.size());
    }

    @Test
    void snapshotsWithEqualContentAreEqualWhateverHowTheyWereMade() {
        StateSnapshot copied = new StateSnapshot(10, bytes(50), List.of(), 1);
        StateSnapshot handed = StateSnapshot.handingOver(10, bytes(50), List.of(), 1);
        assertEquals(copied, handed);
        assertEquals(copied.hashCode(), handed.hashCode());
    }
}
