package org.bftws.config;

/** How messages of a group are authenticated (docs/configuration.md, "Security profiles"). */
public enum SecurityProfile {
    /** No authentication at all: only for tests and WS-RM-only deployments on trusted networks. */
    NONE,
    /**
     * HMAC-SHA256 authenticators: client requests carry one per node, replies one for the client, replica channel
     * frames one per pair; proofs that must convince a third party (checkpoints, view changes) are Ed25519-signed.
     */
    MAC,
    /** WS-Security X.509 signatures on every message, as the BFT-WS paper does. */
    WSSEC
}
