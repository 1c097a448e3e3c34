package org.bftws.wire;

import java.util.Optional;
import org.bftws.core.Message;

/** Where the encoder finds the embedded signature of a transferable message: a cache, or a decoded message. */
@FunctionalInterface
public interface SignatureSource {

    /** The signature its sender made over {@code m}'s canonical form, if known. */
    Optional<byte[]> signatureOf(Message m);

    /** No signatures at all: the {@code none} profile, where transferable messages travel unsigned. */
    static SignatureSource none() {
        return m -> Optional.empty();
    }
}
