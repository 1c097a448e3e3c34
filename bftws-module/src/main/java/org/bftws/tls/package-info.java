/**
 * TLS for every link of a deployment (replicas.xml's {@code <tls>}): the party's certificate from keygen as its TLS
 * identity, the deployment CA as the only trust anchor, the one-line reasons a certificate is refused, and the
 * counters operators read (handshakes, refusals, expiry dates).
 */
package org.bftws.tls;
