package org.bftws.channels.tcp;

/**
 * Takes the payloads of a peer's data frames, each exactly once and in the order the peer sent them, on the
 * connection's reader thread. While it runs, that peer's next frames wait (TCP pushes back on the peer); it must
 * not wait for anything that waits on the network.
 */
@FunctionalInterface
public interface FrameReceiver {
    void frame(int peer, byte[] payload);
}
