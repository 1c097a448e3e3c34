package org.bftws.channels.tcp;

import java.time.Duration;

/**
 * The binary channel's bounds and timers.
 *
 * @param maxFrameBytes      payload bytes of one data frame; a longer length in a header is refused before its bytes
 *                           are read
 * @param windowFrames       data frames sent and not yet acknowledged, at most (kept for retransmission); the sender
 *                           waits beyond it
 * @param windowBytes        their payload bytes, at most (one frame may always be in flight, however large)
 * @param connectTimeout     to open a TCP connection to a peer
 * @param handshakeTimeout   for the whole handshake, on either side
 * @param heartbeat          an idle connection carries an acknowledgement frame this often, so a dead one shows
 * @param idleTimeout        a connection on which nothing arrived for this long is closed (and dialled again)
 * @param ackDelay           how long a received frame's acknowledgement may wait for a data frame to carry it
 * @param reconnectMin       first pause before dialling a peer again
 * @param reconnectMax       longest pause between attempts (doubling from the first)
 * @param maxHandshakes      connections in their handshake at once; more are closed at once
 */
public record TransportSettings(int maxFrameBytes, int windowFrames, long windowBytes, Duration connectTimeout,
                                Duration handshakeTimeout, Duration heartbeat, Duration idleTimeout, Duration ackDelay,
                                Duration reconnectMin, Duration reconnectMax, int maxHandshakes) {

    public TransportSettings {
        if (maxFrameBytes < 1 || windowFrames < 1 || windowBytes < 1 || maxHandshakes < 1) {
            throw new IllegalArgumentException("bounds must be positive: " + this);
        }
        if (idleTimeout.compareTo(heartbeat.multipliedBy(2)) <= 0) {
            throw new IllegalArgumentException("the idle timeout must exceed two heartbeats: " + this);
        }
    }

    /**
     * The defaults for frames of at most {@code maxFrameBytes}: 256 frames or 64 MiB in flight, a heartbeat a
     * second, 10 s of silence ends a connection, acknowledgements within 5 ms, reconnection from 20 ms to 500 ms.
     */
    public static TransportSettings defaults(int maxFrameBytes, int peers) {
        return new TransportSettings(maxFrameBytes, 256, 64L << 20, Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofMillis(5), Duration.ofMillis(20),
                Duration.ofMillis(500), Math.max(4, 2 * peers));
    }

    public TransportSettings withWindow(int frames, long bytes) {
        return new TransportSettings(maxFrameBytes, frames, bytes, connectTimeout, handshakeTimeout, heartbeat,
                idleTimeout, ackDelay, reconnectMin, reconnectMax, maxHandshakes);
    }

    public TransportSettings withTimers(Duration heartbeat, Duration idleTimeout, Duration handshakeTimeout) {
        return new TransportSettings(maxFrameBytes, windowFrames, windowBytes, connectTimeout, handshakeTimeout,
                heartbeat, idleTimeout, ackDelay, reconnectMin, reconnectMax, maxHandshakes);
    }
}
