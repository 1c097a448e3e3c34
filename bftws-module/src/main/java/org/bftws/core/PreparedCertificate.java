package org.bftws.core;

import java.util.List;

/** Proof that a batch was prepared: the primary's pre-prepare and 2f matching prepares from distinct backups. */
public record PreparedCertificate(PrePrepare prePrepare, List<Prepare> prepares) {

    public PreparedCertificate {
        prepares = List.copyOf(prepares);
    }

    public long seq() {
        return prePrepare.seq();
    }

    public int view() {
        return prePrepare.view();
    }

    public Digest digest() {
        return prePrepare.digest();
    }
}
