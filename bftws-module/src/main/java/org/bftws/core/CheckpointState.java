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
 * entries with their last activity, the sequences that ended with their creation times, and the agreed time), as
 * of sequence number {@code seq}. Its canonical encoding is what the checkpoint digest is computed over and what
 * state transfer ships. Expired entries and dropped ended records are not in it.
 */
record CheckpointState(long seq, byte[] applicationState, ReplyTable replies) {

    /**
     * Format 2 added the ended sequences after the entries; format 3 the agreed time after the sequence number, each
     * entry's last activity after its number, and each ended sequence's creation time after its identifier.
     */
    private static final int FORMAT = 3;

    byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(applicationState.length + 64 + replies.size() * 96);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(FORMAT);
            out.writeLong(seq);
            out.writeLong(replies.agreedTime());
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
                out.writeLong(e.getValue().lastActive());
                out.writeInt(reply.length);
                out.write(reply);
            }
            out.writeInt(replies.endedClients().size());
            for (Map.Entry<String, Long> e : replies.endedClients().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
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
            long agreedTime = in.readLong();
            byte[] app = readBytes(in, encoded.length);
            int count = in.readInt();
            if (count < 0 || count > encoded.length) {
                throw new IllegalArgumentException("bad reply-table size " + count);
            }
            Map<String, ReplyTable.Entry> entries = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String client = in.readUTF();
                long number = in.readLong();
                long lastActive = in.readLong();
                entries.put(client, new ReplyTable.Entry(number, readBytes(in, encoded.length), lastActive));
            }
            int endedCount = in.readInt();
            if (endedCount < 0 || endedCount > encoded.length) {
                throw new IllegalArgumentException("bad count of ended sequences " + endedCount);
            }
            Map<String, Long> ended = new LinkedHashMap<>();
            for (int i = 0; i < endedCount; i++) {
                String client = in.readUTF();
                ended.put(client, in.readLong());
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException("trailing bytes after the checkpoint");
            }
            return new CheckpointState(seq, app, ReplyTable.of(entries, ended, agreedTime));
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
