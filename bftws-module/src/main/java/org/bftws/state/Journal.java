package org.bftws.state;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.bftws.core.DurableRecord;
import org.bftws.core.DurableRecordCodec;
import org.bftws.core.DurableState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's data directory: an append-only journal of the core's {@link DurableRecord}s. Each record is written as
 * length, CRC32C and bytes; {@link #sync()} forces them to the disk before the core's later outputs are carried out.
 * A crash in the middle of a write leaves a torn last record, which the checksum exposes: reading stops there and
 * the file is cut back to its last whole record. At every stable checkpoint the journal is compacted: the records
 * that still matter are written to a new file, forced, and renamed over the old one (an atomic replace), so the
 * directory never holds a half-written journal and stays bounded.
 *
 * <p>Next to each prepared certificate and checkpoint proof it keeps the signatures of the messages in it that other
 * nodes signed: a view-change or a state snapshot after a restart must embed them (the node's own messages it can
 * sign again). Those are Ed25519 signatures since format {@value #FORMAT}, which a file {@value #FORMAT_FILE} in the
 * directory names. A journal without it was written with the RSA signatures of earlier versions: no peer would accept
 * them any more, so a view-change of this replica embedding them would be refused everywhere, and after a restart of
 * the whole group no view change could complete. Such a directory is refused at start with what to do
 * ({@link #formatProblem}), never read as if it were usable.
 */
public final class Journal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    public static final String FILE = "journal.log";
    /** Names the journal's format; absent in directories written before proofs were signed with Ed25519. */
    static final String FORMAT_FILE = "format";
    /** Format 2: proof signatures are Ed25519 (format 1, without a format file, had RSA-2048 ones). */
    static final String FORMAT = "2";
    private static final int MAX_RECORD = 1 << 30;

    private final Path dir;
    private final Path file;
    private FileChannel channel;
    private final DurableState state = new DurableState();
    /** Signatures of the messages in each kept record's proof, aligned with {@link #proofParts}. */
    private final java.util.Map<DurableRecord, List<byte[]>> signatures = new java.util.IdentityHashMap<>();
    private boolean dirty;
    private long bytesSinceCompaction;

    private Journal(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
    }

    /**
     * Opens (creating) the data directory and reads what a previous run left; IllegalStateException when it was
     * written in another format ({@link #formatProblem}).
     */
    public static Journal open(Path dir) {
        Journal j = new Journal(dir);
        try {
            Files.createDirectories(dir);
            String problem = formatProblem(dir).orElse(null);
            if (problem != null) {
                throw new IllegalStateException(problem);
            }
            writeFormat(dir);
            long valid = j.readExisting();
            j.channel = FileChannel.open(j.file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            if (j.channel.size() > valid) {
                LOG.warn("{}: dropping {} bytes of a record torn by a crash", j.file, j.channel.size() - valid);
                j.channel.truncate(valid);
            }
            j.channel.position(valid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the data directory " + dir, e);
        }
        return j;
    }

    /**
     * Why this version cannot use data directory {@code dir}, in one line that says what to do; empty when it can
     * (it holds a journal of this format, or none).
     */
    public static java.util.Optional<String> formatProblem(Path dir) {
        Path format = dir.resolve(FORMAT_FILE);
        try {
            if (Files.isRegularFile(format)) {
                String found = Files.readString(format).trim();
                return found.equals(FORMAT) ? java.util.Optional.empty() : java.util.Optional.of(dir
                        + " holds a journal of format " + found + ", which this version (format " + FORMAT
                        + ") cannot read; start this replica with the version that wrote it, or with an empty data"
                        + " directory (it then fetches the state from the others, docs/operations.md)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + format, e);
        }
        if (!Files.exists(dir.resolve(FILE))) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(dir + " was written by an earlier version, whose journal holds RSA proof"
                + " signatures that no replica accepts since proofs are signed with Ed25519; move it away and start"
                + " this replica with an empty data directory (it then fetches the state from the others; upgrade"
                + " a whole group at once, docs/operations.md)");
    }

    /** Names this format in a new data directory, before the journal exists (atomically: never half-written). */
    private static void writeFormat(Path dir) throws IOException {
        Path format = dir.resolve(FORMAT_FILE);
        if (Files.isRegularFile(format)) {
            return;
        }
        Path tmp = dir.resolve(FORMAT_FILE + ".next");
        Files.writeString(tmp, FORMAT + "\n");
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            c.force(true);
        }
        Files.move(tmp, format, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** What the previous run persisted (empty on a first start). */
    public DurableState recovered() {
        return state;
    }

    private long readExisting() throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        long valid = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(12);
            while (true) {
                header.clear();
                if (readFully(in, header) < 12) {
                    break;
                }
                header.flip();
                int length = header.getInt();
                long crc = header.getLong();
                if (length < 0 || length > MAX_RECORD || in.position() + length > in.size()) {
                    break;
                }
                ByteBuffer body = ByteBuffer.allocate(length);
                if (readFully(in, body) < length || checksum(body.array()) != crc) {
                    break;
                }
                try {
                    ByteBuffer entry = ByteBuffer.wrap(body.array());
                    byte[] recordBytes = new byte[entry.getInt()];
                    entry.get(recordBytes);
                    DurableRecord r = DurableRecordCodec.decode(recordBytes);
                    List<byte[]> sigs = new ArrayList<>();
                    for (int n = entry.getInt(); n > 0; n--) {
                        byte[] s = new byte[entry.getInt()];
                        entry.get(s);
                        sigs.add(s);
                    }
                    state.apply(r);
                    signatures.put(r, sigs);
                } catch (IllegalArgumentException | java.nio.BufferUnderflowException | NegativeArraySizeException e) {
                    LOG.warn("{}: unreadable record at byte {}: {}", file, valid, e.getMessage());
                    break;
                }
                valid = in.position();
            }
        }
        return valid;
    }

    private static int readFully(FileChannel in, ByteBuffer b) throws IOException {
        int total = 0;
        while (b.hasRemaining()) {
            int n = in.read(b);
            if (n < 0) {
                break;
            }
            total += n;
        }
        return total;
    }

    private static long checksum(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return crc.getValue();
    }

    /** The messages of a record whose signatures travel with it, in a fixed order. */
    public static List<org.bftws.core.Message> proofParts(DurableRecord r) {
        List<org.bftws.core.Message> parts = new ArrayList<>();
        if (r instanceof DurableRecord.PreparedRecord p) {
            parts.add(p.certificate().prePrepare());
            parts.addAll(p.certificate().prepares());
        } else if (r instanceof DurableRecord.CheckpointRecord cp) {
            parts.addAll(cp.proof());
        }
        return parts;
    }

    /**
     * Appends a record with the signatures of its proof's messages (empty where unknown), not yet forced to disk
     * (see {@link #sync()}); a stable checkpoint also compacts.
     */
    public synchronized void append(DurableRecord r, List<byte[]> proofSignatures) {
        state.apply(r);
        signatures.put(r, List.copyOf(proofSignatures));
        if (r instanceof DurableRecord.CheckpointRecord) {
            compact();
            return;
        }
        write(channel, r);
        dirty = true;
    }

    public void append(DurableRecord r) {
        append(r, List.of());
    }

    /** Every (message, signature) the kept records' proofs carry: for the signature cache after a restart. */
    public synchronized java.util.Map<org.bftws.core.Message, byte[]> recoveredSignatures() {
        java.util.Map<org.bftws.core.Message, byte[]> out = new java.util.HashMap<>();
        for (DurableRecord r : state.records()) {
            List<org.bftws.core.Message> parts = proofParts(r);
            List<byte[]> sigs = signatures.getOrDefault(r, List.of());
            for (int i = 0; i < Math.min(parts.size(), sigs.size()); i++) {
                if (sigs.get(i).length > 0) {
                    out.put(parts.get(i), sigs.get(i));
                }
            }
        }
        return out;
    }

    private void write(FileChannel to, DurableRecord r) {
        byte[] record = DurableRecordCodec.encode(r);
        List<byte[]> sigs = signatures.getOrDefault(r, List.of());
        int length = 4 + record.length + 4 + sigs.stream().mapToInt(s -> 4 + s.length).sum();
        ByteBuffer entry = ByteBuffer.allocate(length);
        entry.putInt(record.length).put(record).putInt(sigs.size());
        sigs.forEach(s -> entry.putInt(s.length).put(s));
        byte[] bytes = entry.array();
        ByteBuffer b = ByteBuffer.allocate(12 + bytes.length);
        b.putInt(bytes.length).putLong(checksum(bytes)).put(bytes).flip();
        try {
            while (b.hasRemaining()) {
                to.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the data directory " + dir, e);
        }
        bytesSinceCompaction += bytes.length + 12;
    }

    /** Forces appended records to the disk; false when there was nothing to force. */
    public synchronized boolean sync() {
        if (!dirty) {
            return false;
        }
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot sync the data directory " + dir, e);
        }
        dirty = false;
        return true;
    }

    /** Rewrites the journal as the records that still matter (atomic replace: a crash leaves the old or the new). */
    private void compact() {
        Path next = dir.resolve(FILE + ".next");
        try (FileChannel out = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            bytesSinceCompaction = 0;
            List<DurableRecord> kept = state.records();
            java.util.Set<DurableRecord> keep = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            keep.addAll(kept);
            signatures.keySet().retainAll(keep);
            for (DurableRecord r : kept) {
                write(out, r);
            }
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the data directory " + dir, e);
        }
        try {
            channel.close();
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory();
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            channel.position(channel.size());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace the journal in " + dir, e);
        }
        dirty = false;
    }

    /** The rename is durable only once the directory entry is. */
    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            LOG.debug("cannot force directory {} (not supported here): {}", dir, e.toString());
        }
    }

    /** Size of the journal in bytes. */
    synchronized long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            return -1;
        }
    }

    List<DurableRecord> records() {
        return new ArrayList<>(state.records());
    }

    @Override
    public synchronized void close() {
        try {
            sync();
            channel.close();
        } catch (IOException | RuntimeException e) {
            LOG.warn("closing the journal in {}: {}", dir, e.toString());
        }
    }
}
