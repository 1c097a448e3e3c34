package org.bftws.core;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a {@link DurableRecord} in a node's data directory: a versioned binary form (a tag, then every field
 * with lengths). Decoding checks every length against the bytes at hand, so a damaged record is an
 * {@link IllegalArgumentException}, never a huge allocation.
 */
public final class DurableRecordCodec {

    /** Format 2 added each batch's time (agreed time, docs/protocol.md) before its request count. */
    private static final int FORMAT = 2;
    private static final int VIEW = 1;
    private static final int PREPARED = 2;
    private static final int COMMITTED = 3;
    private static final int CHECKPOINT = 4;

    private DurableRecordCodec() {
    }

    public static byte[] encode(DurableRecord r) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            if (r instanceof DurableRecord.ViewRecord v) {
                out.writeByte(VIEW);
                out.writeInt(v.view());
            } else if (r instanceof DurableRecord.PreparedRecord p) {
                out.writeByte(PREPARED);
                writePrePrepare(out, p.certificate().prePrepare());
                out.writeInt(p.certificate().prepares().size());
                for (Prepare pr : p.certificate().prepares()) {
                    out.writeInt(pr.view());
                    out.writeLong(pr.seq());
                    writeBytes(out, pr.digest().bytes());
                    out.writeInt(pr.sender());
                }
                writeRequests(out, p.requests());
            } else if (r instanceof DurableRecord.CommittedRecord c) {
                out.writeByte(COMMITTED);
                out.writeLong(c.seq());
                out.writeInt(c.view());
                writeBatch(out, c.batch());
                writeRequests(out, c.requests());
            } else if (r instanceof DurableRecord.CheckpointRecord cp) {
                out.writeByte(CHECKPOINT);
                out.writeLong(cp.seq());
                writeBytes(out, cp.digest().bytes());
                out.writeInt(cp.proof().size());
                for (Checkpoint c : cp.proof()) {
                    out.writeLong(c.seq());
                    writeBytes(out, c.state().bytes());
                    out.writeInt(c.sender());
                }
                byte[] state = cp.state();
                out.writeBoolean(state != null);
                if (state != null) {
                    writeBytes(out, state);
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
    }

    public static DurableRecord decode(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            if (in.readUnsignedByte() != FORMAT) {
                throw new IllegalArgumentException("unknown record format");
            }
            int tag = in.readUnsignedByte();
            DurableRecord r = switch (tag) {
                case VIEW -> new DurableRecord.ViewRecord(in.readInt());
                case PREPARED -> readPrepared(in, bytes.length);
                case COMMITTED -> new DurableRecord.CommittedRecord(in.readLong(), in.readInt(), readBatch(in, bytes.length),
                        readRequests(in, bytes.length));
                case CHECKPOINT -> readCheckpoint(in, bytes.length);
                default -> throw new IllegalArgumentException("unknown record tag " + tag);
            };
            if (in.available() != 0) {
                throw new IllegalArgumentException("trailing bytes after a record");
            }
            return r;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated record: " + e.getMessage(), e);
        }
    }

    private static DurableRecord.PreparedRecord readPrepared(DataInputStream in, int limit) throws IOException {
        PrePrepare pp = readPrePrepare(in, limit);
        int n = count(in, limit);
        List<Prepare> prepares = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            prepares.add(new Prepare(in.readInt(), in.readLong(), Digest.fromBytes(readBytes(in, limit)), in.readInt()));
        }
        return new DurableRecord.PreparedRecord(new PreparedCertificate(pp, prepares), readRequests(in, limit));
    }

    private static DurableRecord.CheckpointRecord readCheckpoint(DataInputStream in, int limit) throws IOException {
        long seq = in.readLong();
        Digest digest = Digest.fromBytes(readBytes(in, limit));
        int n = count(in, limit);
        List<Checkpoint> proof = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            proof.add(new Checkpoint(in.readLong(), Digest.fromBytes(readBytes(in, limit)), in.readInt()));
        }
        byte[] state = in.readBoolean() ? readBytes(in, limit) : null;
        return new DurableRecord.CheckpointRecord(seq, digest, proof, state);
    }

    private static void writePrePrepare(DataOutputStream out, PrePrepare pp) throws IOException {
        out.writeInt(pp.view());
        out.writeLong(pp.seq());
        writeBatch(out, pp.batch());
        out.writeInt(pp.sender());
    }

    private static PrePrepare readPrePrepare(DataInputStream in, int limit) throws IOException {
        int view = in.readInt();
        long seq = in.readLong();
        Batch batch = readBatch(in, limit);
        return new PrePrepare(view, seq, batch, in.readInt());
    }

    private static void writeBatch(DataOutputStream out, Batch b) throws IOException {
        out.writeLong(b.time());
        out.writeInt(b.size());
        for (RequestRef r : b.requests()) {
            out.writeUTF(r.id().client());
            out.writeLong(r.id().number());
            writeBytes(out, r.digest().bytes());
        }
    }

    private static Batch readBatch(DataInputStream in, int limit) throws IOException {
        long time = in.readLong();
        int n = count(in, limit);
        List<RequestRef> refs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            refs.add(new RequestRef(new RequestId(in.readUTF(), in.readLong()), Digest.fromBytes(readBytes(in, limit))));
        }
        return new Batch(refs, time);
    }

    private static void writeRequests(DataOutputStream out, List<Request> requests) throws IOException {
        out.writeInt(requests.size());
        for (Request r : requests) {
            out.writeUTF(r.id().client());
            out.writeLong(r.id().number());
            writeBytes(out, r.payload());
        }
    }

    private static List<Request> readRequests(DataInputStream in, int limit) throws IOException {
        int n = count(in, limit);
        List<Request> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new Request(new RequestId(in.readUTF(), in.readLong()), readBytes(in, limit)));
        }
        return list;
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
        int n = count(in, limit);
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static int count(DataInputStream in, int limit) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > limit) {
            throw new IllegalArgumentException("bad length " + n);
        }
        return n;
    }
}
