package org.bftws.wire;

import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;

/**
 * A PBFT message whose embedded or relayed proofs do not authenticate; the message must not reach the core. A
 * {@link SecurityRefusal}, so the adapter counts it with the node's other refusals
 * ({@code SecurityRuntime.refusals()}) under its {@link RefusalReason}.
 */
public final class ProofRefusal extends SecurityRefusal {
    private static final long serialVersionUID = 1L;

    public ProofRefusal(RefusalReason reason, String detail) {
        super(reason, detail);
    }

    public ProofRefusal(RefusalReason reason, String detail, Throwable cause) {
        super(reason, detail, cause);
    }
}
