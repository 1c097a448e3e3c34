package org.bftws.core;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a checkpoint covers: the application state {@code get_state} returned and the last-reply table (its live
 * entries and the identifiers of the sequences that ended), as of sequence number {@code seq}. Its canonical
 * encoding is what the checkpoint digest is computed over and what state transfer ships.
 */
record CheckpointState(long seq, byte[] applicationState, ReplyTable replies) {

    /** Format 2 added the ended sequences after the entries. */
    private static final int FORMAT = 2;

    byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(applicationState.length + 64 + replies.size() * 96);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(FORMAT);
            out.writeLong(seq);
            out.writeInt(applicationState.length);
            out.write(applicationState);
            out.writeInt(replies.size());
            for (Map.Entry<String, ReplyTable.Entry> e : replies.entries().entrySet()) {
                byte[] reply = e.getValue().reply();
                if (reply == null) {
                    throw new IllegalStateException("checkpoint at " + seq + " taken while " + e.getKey() + " executes");
                }
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue().number());
                out.writeInt(reply.length);
                out.write(reply);
            }
            out.writeInt(replies.endedClients().size());
            for (String client : replies.endedClients()) {
                out.writeUTF(client);
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory cannot fail", e);
        }
    }

    /** Parses bytes that came from another node; a malformed encoding is an {@link IllegalArgumentException}. */
    static CheckpointState decode(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            if (in.readInt() != FORMAT) {
                throw new IllegalArgumentException("unknown checkpoint format");
            }
            long seq = in.readLong();
            byte[] app = readBytes(in, encoded.length);
            int count = in.readInt();
            if (count < 0 || count > encoded.length) {
                throw new IllegalArgumentException("bad reply-table size " + count);
            }
            Map<String, ReplyTable.Entry> entries = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String client = in.readUTF();
                long number = in.readLong();
                entries.put(client, new ReplyTable.Entry(number, readBytes(in, encoded.length)));
            }
            int endedCount = in.readInt();
            if (endedCount < 0 || endedCount > encoded.length) {
                throw new IllegalArgumentException("bad count of ended sequences " + endedCount);
            }
            java.util.List<String> ended = new java.util.ArrayList<>(endedCount);
            for (int i = 0; i < endedCount; i++) {
                ended.add(in.readUTF());
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException("trailing bytes after the checkpoint");
            }
            return new CheckpointState(seq, app, ReplyTable.of(entries, ended));
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated checkpoint: " + e.getMessage(), e);
        }
    }

    private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > limit) {
            throw new IllegalArgumentException("bad length " + length);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }
}
