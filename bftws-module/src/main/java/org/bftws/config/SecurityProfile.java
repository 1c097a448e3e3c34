package org.bftws.config;

/** How messages of a group are authenticated (ARCHITECTURE.md, "Message authentication"). */
public enum SecurityProfile {
    /** No authentication at all: only for tests and WS-RM-only deployments on trusted networks. */
    NONE,
    /** HMAC-SHA256 authenticators between replicas; client requests and proofs stay signed. */
    MAC,
    /** WS-Security X.509 signatures on every message, as the BFT-WS paper does. */
    WSSEC
}
