package org.bftws.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.bftws.core.Batch;
import org.bftws.core.Checkpoint;
import org.bftws.core.Digest;
import org.bftws.core.DurableRecord;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data directory survives crashes mid-write and stays bounded. */
class JournalTest {

    @TempDir
    Path dir;

    private static DurableRecord.CommittedRecord committed(long seq) {
        Request r = new Request(new RequestId("c", seq), ("request " + seq).getBytes());
        return new DurableRecord.CommittedRecord(seq, 0, new Batch(List.of(r.ref())), List.of(r));
    }

    private static DurableRecord.CheckpointRecord checkpoint(long seq) {
        Digest d = Digest.of(("state " + seq).getBytes());
        return new DurableRecord.CheckpointRecord(seq, d, List.of(new Checkpoint(seq, d, 0), new Checkpoint(seq, d, 1),
                new Checkpoint(seq, d, 2)), ("state " + seq).getBytes());
    }

    @Test
    void whatWasSyncedIsReadBackAfterARestart() {
        try (Journal j = Journal.open(dir)) {
            j.append(new DurableRecord.ViewRecord(3));
            j.append(committed(1));
            j.append(committed(2));
            j.sync();
        }
        try (Journal again = Journal.open(dir)) {
            assertEquals(3, again.recovered().view());
            assertEquals(List.of(1L, 2L), List.copyOf(again.recovered().committed().keySet()));
            assertEquals("request 2", new String(again.recovered().committed().get(2L).requests().get(0).payload()));
        }
    }

    @Test
    void aRecordTornByACrashIsDroppedAndTheJournalGoesOnFromTheLastWholeRecord() throws Exception {
        try (Journal j = Journal.open(dir)) {
            j.append(committed(1));
            j.append(committed(2));
            j.sync();
        }
        Path file = dir.resolve(Journal.FILE);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 5);
        }
        try (Journal again = Journal.open(dir)) {
            assertEquals(List.of(1L), List.copyOf(again.recovered().committed().keySet()));
            again.append(committed(2));
            again.sync();
        }
        try (Journal third = Journal.open(dir)) {
            assertEquals(List.of(1L, 2L), List.copyOf(third.recovered().committed().keySet()));
        }
    }

    @Test
    void aRecordWhoseChecksumDoesNotMatchEndsTheReadableJournal() throws Exception {
        try (Journal j = Journal.open(dir)) {
            j.append(committed(1));
            j.append(committed(2));
            j.sync();
        }
        Path file = dir.resolve(Journal.FILE);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 3] ^= 0x40;
        Files.write(file, bytes);
        try (Journal again = Journal.open(dir)) {
            assertEquals(List.of(1L), List.copyOf(again.recovered().committed().keySet()));
        }
    }

    @Test
    void aStableCheckpointCompactsTheJournalToWhatStillMatters() {
        long before;
        try (Journal j = Journal.open(dir)) {
            for (long n = 1; n <= 40; n++) {
                j.append(committed(n));
            }
            j.sync();
            before = j.size();
            j.append(checkpoint(40));
            j.append(committed(41));
            j.sync();
            assertTrue(j.size() < before / 4, "compacted from " + before + " to " + j.size());
        }
        try (Journal again = Journal.open(dir)) {
            assertNotNull(again.recovered().checkpoint());
            assertEquals(40, again.recovered().checkpoint().seq());
            assertEquals(List.of(41L), List.copyOf(again.recovered().committed().keySet()));
            assertEquals("state 40", new String(again.recovered().checkpoint().state()));
        }
    }

    @Test
    void aDataDirectoryWrittenWithRsaProofSignaturesIsRefusedWithWhatToDoNotReadAsIfUsable() throws Exception {
        // what an earlier version left: a journal whose proofs carry RSA-2048 signatures, and no format file
        try (Journal j = Journal.open(dir)) {
            j.append(checkpoint(8), List.of(new byte[256], new byte[256], new byte[256]));
            j.sync();
        }
        Files.delete(dir.resolve(Journal.FORMAT_FILE));
        long size = Files.size(dir.resolve(Journal.FILE));
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Journal.open(dir));
        assertTrue(e.getMessage().contains("RSA proof signatures") && e.getMessage().contains("empty data directory"),
                e.getMessage());
        assertTrue(Journal.formatProblem(dir).isPresent(), "the replica's start-up check refuses it too");
        assertEquals(size, Files.size(dir.resolve(Journal.FILE)), "left as it was");
        assertTrue(Files.notExists(dir.resolve(Journal.FORMAT_FILE)));
    }

    @Test
    void aNewDataDirectoryNamesItsFormatAndIsReadAgain() throws Exception {
        try (Journal j = Journal.open(dir)) {
            j.append(checkpoint(8), List.of(new byte[64], new byte[64], new byte[64]));
            j.sync();
        }
        assertEquals(Journal.FORMAT, Files.readString(dir.resolve(Journal.FORMAT_FILE)).trim());
        assertTrue(Journal.formatProblem(dir).isEmpty());
        try (Journal again = Journal.open(dir)) {
            assertEquals(8, again.recovered().checkpoint().seq());
            assertEquals(3, again.recoveredSignatures().size());
        }
        Files.writeString(dir.resolve(Journal.FORMAT_FILE), "3\n"); // a later version's
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> Journal.open(dir));
        assertTrue(e.getMessage().contains("format 3"), e.getMessage());
    }
}
