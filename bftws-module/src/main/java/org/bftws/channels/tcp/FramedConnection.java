package org.bftws.channels.tcp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * One authenticated TCP connection to a peer, after its handshake: writes and reads frames.
 * <pre>
 * type (1: data, 2: acknowledgement) | payload length (4) | frame number (8, data only) | acknowledgement (8) |
 * payload | MAC (32, none without keys)
 * </pre>
 * The acknowledgement is the number of the last data frame delivered from the other direction's stream; every frame
 * carries it, so a busy connection needs no separate acknowledgements. Reading refuses ({@link ChannelRefusal})
 * what no correct peer writes, before it allocates anything for it: an unknown type, an acknowledgement frame with a
 * payload, a length above the bound; and a frame whose MAC does not hold. One writer thread and one reader thread.
 */
final class FramedConnection implements Closeable {
    static final int DATA = 1;
    static final int ACK = 2;
    static final int HEADER_BYTES = 1 + 4 + 8 + 8;
    private static final int BUFFER = 64 * 1024;

    /** A frame as read: for acknowledgements the number is 0 and the payload empty. */
    record Frame(int type, long number, long ack, byte[] payload) {
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final FrameMac outMac;
    private final FrameMac inMac;
    private final int maxFrameBytes;
    private long written;
    private long read;
    private volatile boolean closed;

    private FramedConnection(Socket socket, DataInputStream in, OutputStream out, FrameMac outMac, FrameMac inMac,
                             int maxFrameBytes) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.outMac = outMac;
        this.inMac = inMac;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** The buffered streams of a socket, for its handshake and then its frames. */
    record Streams(Socket socket, DataInputStream in, OutputStream out) {
        static Streams of(Socket socket) throws IOException {
            return new Streams(socket, new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER)),
                    new BufferedOutputStream(socket.getOutputStream(), BUFFER));
        }

        FramedConnection framed(Handshake.Session session, int maxFrameBytes) {
            return new FramedConnection(socket, in, out, session.out(), session.in(), maxFrameBytes);
        }

        /** Framing with MACs chosen by the caller (a test playing a peer that uses the wrong key). */
        FramedConnection framed(FrameMac outMac, FrameMac inMac, int maxFrameBytes) {
            return new FramedConnection(socket, in, out, outMac, inMac, maxFrameBytes);
        }
    }

    /** Writes data frame {@code number}; returns the bytes written. */
    int writeData(long number, long ack, byte[] payload, boolean flush) throws IOException {
        return write(DATA, number, ack, payload, flush);
    }

    /** Writes an acknowledgement frame (also the heartbeat of an idle connection). */
    int writeAck(long ack) throws IOException {
        return write(ACK, 0, ack, null, true);
    }

    private int write(int type, long number, long ack, byte[] payload, boolean flush) throws IOException {
        int length = payload == null ? 0 : payload.length;
        byte[] header = header(type, length, number, ack);
        byte[] mac = outMac.of(written++, header, payload);
        out.write(header);
        if (payload != null) {
            out.write(payload);
        }
        out.write(mac);
        if (flush) {
            out.flush();
        }
        return header.length + length + mac.length;
    }

    static byte[] header(int type, int length, long number, long ack) {
        return ByteBuffer.allocate(HEADER_BYTES).put((byte) type).putInt(length).putLong(number).putLong(ack).array();
    }

    void flush() throws IOException {
        out.flush();
    }

    /**
     * The next frame, its MAC checked. EOFException when the peer closed between frames (or inside one); a
     * ChannelRefusal for a frame no correct peer writes.
     */
    Frame read() throws IOException, ChannelRefusal {
        byte[] header = new byte[HEADER_BYTES];
        in.readFully(header);
        ByteBuffer h = ByteBuffer.wrap(header);
        int type = h.get() & 0xff;
        int length = h.getInt();
        long number = h.getLong();
        long ack = h.getLong();
        if (type == DATA) {
            if (length < 1 || number < 1) {
                throw new ChannelRefusal(Refusal.MALFORMED_FRAME, "data frame " + number + " of " + length + " bytes");
            }
            if (length > maxFrameBytes) {
                throw new ChannelRefusal(Refusal.OVERSIZED_FRAME, "a frame of " + Integer.toUnsignedString(length)
                        + " bytes, at most " + maxFrameBytes + " allowed");
            }
        } else if (type == ACK) {
            if (length != 0 || number != 0) {
                throw new ChannelRefusal(Refusal.MALFORMED_FRAME, "an acknowledgement frame with number " + number
                        + " and " + Integer.toUnsignedString(length) + " payload bytes");
            }
        } else {
            throw new ChannelRefusal(Refusal.MALFORMED_FRAME, "frame type " + type);
        }
        if (ack < 0) {
            throw new ChannelRefusal(Refusal.MALFORMED_FRAME, "acknowledgement " + ack);
        }
        // read as the bytes arrive: a peer that claims a long frame and sends little costs little
        byte[] payload = type == DATA ? in.readNBytes(length) : null;
        byte[] mac = in.readNBytes(inMac.length());
        if ((payload != null && payload.length < length) || mac.length < inMac.length()) {
            throw new EOFException("the connection closed inside a frame");
        }
        if (!inMac.matches(read++, header, payload, mac)) {
            throw new ChannelRefusal(Refusal.MAC_MISMATCH, (type == DATA ? "data frame " + number
                    : "acknowledgement frame") + " (position " + (read - 1) + " on this connection)");
        }
        return new Frame(type, number, ack, payload == null ? new byte[0] : payload);
    }

    /** Payload, header and MAC bytes of a frame with {@code payloadBytes}. */
    int frameBytes(int payloadBytes) {
        return HEADER_BYTES + payloadBytes + outMac.length();
    }

    boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that was asked
        }
    }

    @Override
    public String toString() {
        return socket.getLocalSocketAddress() + "<->" + socket.getRemoteSocketAddress();
    }
}
