package org.bftws.security.mac;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPHeaderBlock;
import org.apache.axiom.om.OMOutputFormat;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.util.MessageProcessorSelector;
import org.bftws.config.GroupConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.security.AuthenticatedParty;
import org.bftws.security.DeploymentTrust;
import org.bftws.security.MessageAuthenticator;
import org.bftws.security.PartyKeystore;
import org.bftws.security.ReceivedBytes;
import org.bftws.security.RefusalReason;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.SignedEnvelope;
import org.bftws.security.WsSecurity;
import org.bftws.soap.MalformedSoap;
import org.bftws.soap.SoapHeader;
import org.bftws.wire.BundleCodec;
import org.bftws.wire.MalformedXml;
import org.bftws.wire.WireBundle;
import org.bftws.wire.WireFormatException;
import org.bftws.wire.WireLimits;
import org.bftws.wire.WireNames;

/**
 * The {@code mac} profile (PBFT's practice, the BFT-WS paper's future work): a message between two nodes of a group,
 * and a node's reply to a client it shares a key with, carries a {@code mac:Authenticator} header, HMAC-SHA256 under
 * the key the two share, over {@link MacInput}. A client's request carries a {@code mac:RequestAuthenticator}
 * instead, one HMAC per node of the group, each under the key the client shares with that node, so every node can
 * check its own entry, also on a copy relayed by another node (the core orders such requests on claims,
 * docs/protocol.md). A request from a party without a key shared with every node (another group's node calling)
 * and a reply to a party without a shared key (another group's node, a client keygen did not know) are
 * WS-Security signed.
 * An incoming message with an authenticator is judged by it alone; one without goes to WS-Security. Refusals carry a
 * {@link RefusalReason} like the wssec ones ({@code MAC_MISMATCH}, {@code MISDIRECTED}, {@code UNKNOWN_PEER},
 * {@code MALFORMED}, {@code MALFORMED_PBFT}). A verified PBFT bundle is left in the message context as
 * {@link WireBundle#PROPERTY}, so the receiver need not decode it again. Thread-safe.
 */
public final class MacAuthenticator implements MessageAuthenticator {
    private final ReplicasConfig config;
    private final String self;
    private final Function<GroupConfig, WsSecurity> wsSecurity;
    private final Map<String, BundleCodec> codecs = new ConcurrentHashMap<>();
    private volatile PairwiseKeys keys;
    private volatile DeploymentTrust trust;

    /**
     * @param self       this party's name in {@code config}
     * @param wsSecurity the wssec profile of this party for a group: client traffic goes there
     */
    public MacAuthenticator(ReplicasConfig config, String self, Function<GroupConfig, WsSecurity> wsSecurity) {
        this.config = config;
        this.self = self;
        this.wsSecurity = wsSecurity;
    }

    @Override
    public void protect(MessageContext outgoing, GroupConfig group) throws SecurityRefusal {
        String peer = Exchange.receiverOf(outgoing, group, self);
        if (peer == null) {
            peer = Exchange.clientAnswered(outgoing, config);
            if (peer != null && !keys().sharesKeyWith(peer)) {
                peer = null;
            }
        }
        if (peer == null) {
            List<String> callers = Exchange.callerReplicasAnswered(outgoing, config, group);
            if (isClientRequest(outgoing, group)) {
                addRequestAuthenticator(outgoing, group);
            } else if (!callers.isEmpty() && SignedEnvelope.sentAsBytes(outgoing)
                    && callers.stream().allMatch(c -> keys().sharesKeyWith(c))) {
                addCallerReplyAuthenticators(outgoing, group, callers);
            } else {
                AuthenticatedParty.refuseToSignFaultToNobody(outgoing);
                wsSecurity.apply(group).signMessage(outgoing);
            }
            return;
        }
        SOAPEnvelope envelope = outgoing.getEnvelope();
        // a message sent through the flow again gets a fresh authenticator
        MacHeaderBlocks.all(envelope, AuthenticatorHeader.NAME).forEach(SOAPHeaderBlock::detach);
        String from = Exchange.nodeNamed(group, self);
        String to = peer;
        if (SignedEnvelope.sentAsBytes(outgoing)) {
            new AuthenticatorHeader(from, to, ByteSeal.PLACEHOLDER_MAC, true).addTo(envelope);
            sendSealed(outgoing, bytes -> List.of(macWith(to, MacInput.ofBytes(group.service(), from, to, bytes))));
            return;
        }
        WireBundle bundle;
        try {
            bundle = outgoingBundle(outgoing, envelope, group);
        } catch (WireFormatException e) {
            throw new IllegalStateException("this node built PBFT messages it cannot read back: " + e.getMessage(), e);
        }
        byte[] input = MacInput.of(group.service(), from, peer, envelope, bundle);
        new AuthenticatorHeader(from, peer, macWith(peer, input), false).addTo(envelope);
    }

    /**
     * Of a message's authenticators, the one for this party: the only one (its receiver is checked with the rest),
     * or, on a reply to a caller group's replicas, the one naming this replica.
     */
    private AuthenticatorHeader addressedHere(List<AuthenticatorHeader> headers) throws SecurityRefusal {
        if (headers.size() == 1) {
            return headers.get(0);
        }
        return headers.stream().filter(h -> h.to().equalsIgnoreCase(self)).findFirst().orElseThrow(() ->
                new SecurityRefusal(RefusalReason.MISDIRECTED, "none of its " + headers.size()
                        + " authenticators is for " + self));
    }

    /**
     * A callee replica's reply to a nested request (paper 3.4): every replica of the caller group sent the request,
     * and this one reply answers them all (the reply cache serves the later copies the same bytes), so it carries one
     * authenticator per caller replica, each an HMAC under the key this node shares with it over the same bytes, with
     * every authenticator's placeholder in them ({@link ByteSeal}).
     */
    private void addCallerReplyAuthenticators(MessageContext outgoing, GroupConfig group, List<String> callers) {
        SOAPEnvelope envelope = outgoing.getEnvelope();
        MacHeaderBlocks.all(envelope, AuthenticatorHeader.NAME).forEach(SOAPHeaderBlock::detach);
        String from = Exchange.nodeNamed(group, self);
        for (String caller : callers) {
            new AuthenticatorHeader(from, caller, ByteSeal.PLACEHOLDER_MAC, true).addTo(envelope);
        }
        sendSealed(outgoing, bytes -> callers.stream()
                .map(caller -> macWith(caller, MacInput.ofBytes(group.service(), from, caller, bytes))).toList());
    }

    private byte[] macWith(String peer, byte[] input) {
        return keys().mac(peer, input).orElseThrow(() -> new IllegalStateException(self + " holds no MAC key"
                + " shared with " + peer + "; run ./bftws keygen to add the pair keys"));
    }

    /**
     * The bytes form ({@link ByteSeal}): serialises {@code outgoing} once, with the placeholders its authenticator
     * holds, writes the MACs {@code macs} computes over those bytes in their place, and leaves the result for the
     * transport ({@link SignedEnvelope}), which sends exactly these bytes. The envelope stays as it is for local
     * readers (a replica's reply capture reads its body).
     */
    private static void sendSealed(MessageContext outgoing, Function<byte[], List<byte[]>> macs) {
        OMOutputFormat format = new OMOutputFormat();
        format.setSOAP11(outgoing.isSOAP11());
        format.setCharSetEncoding(java.nio.charset.StandardCharsets.UTF_8.name());
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(2048);
        try {
            MessageProcessorSelector.getMessageFormatter(outgoing).writeTo(outgoing, format, out, true);
        } catch (AxisFault e) {
            throw new IllegalStateException("cannot serialise the message to authenticate: " + e.getMessage(), e);
        }
        byte[] bytes = out.toByteArray();
        ByteSeal.seal(bytes, macs.apply(bytes));
        outgoing.setProperty(SignedEnvelope.PROPERTY, new SignedEnvelope(outgoing.getEnvelope(), bytes));
    }

    /**
     * Whether {@code outgoing} is a request this party, a client of the deployment or a replica of a group that calls
     * {@code group} (a nested request), sends to the nodes of {@code group} and can authenticate to each of them: it
     * shares a key with every node.
     */
    private boolean isClientRequest(MessageContext outgoing, GroupConfig group) {
        if (outgoing.isServerSide() || Exchange.requesterOf(config, group, self) == null) {
            return false;
        }
        for (org.bftws.config.NodeConfig node : group.nodes()) {
            if (!keys().sharesKeyWith(node.name())) {
                return false;
            }
        }
        return true;
    }

    /**
     * One entry per node of the group, each under the key this client shares with that node, over one input: the
     * bytes as they travel when the transport sends them as they are ({@link ByteSeal}), else the canonical form.
     */
    private void addRequestAuthenticator(MessageContext outgoing, GroupConfig group) throws SecurityRefusal {
        SOAPEnvelope envelope = outgoing.getEnvelope();
        SOAPHeaderBlock old = RequestAuthenticatorHeader.find(envelope);
        if (old != null) {
            old.detach(); // a message sent through the flow again gets a fresh authenticator
        }
        String client = Exchange.requesterOf(config, group, self);
        java.util.Map<String, byte[]> entries = new java.util.LinkedHashMap<>();
        if (SignedEnvelope.sentAsBytes(outgoing)) {
            group.nodes().forEach(node -> entries.put(node.name(), ByteSeal.PLACEHOLDER_MAC));
            new RequestAuthenticatorHeader(client, entries, true).addTo(envelope);
            sendSealed(outgoing, bytes -> {
                byte[] input = MacInput.ofRequestBytes(group.service(), client, bytes);
                return group.nodes().stream().map(node -> macWith(node.name(), input)).toList();
            });
            return;
        }
        byte[] input = MacInput.ofRequest(group.service(), client, envelope);
        for (org.bftws.config.NodeConfig node : group.nodes()) {
            entries.put(node.name(), macWith(node.name(), input));
        }
        new RequestAuthenticatorHeader(client, entries, false).addTo(envelope);
    }

    @Override
    public AuthenticatedParty authenticate(MessageContext incoming, GroupConfig group) throws SecurityRefusal {
        try {
            return authenticateParsed(incoming, group);
        } catch (RuntimeException e) {
            // AXIOM parses lazily: XML that is not well formed may surface while a header is read (MalformedXml)
            if (!MalformedXml.isParserRefusal(e)) {
                throw e;
            }
            throw new SecurityRefusal(RefusalReason.MALFORMED, "not well-formed XML: " + e.getMessage(), e);
        }
    }

    private AuthenticatedParty authenticateParsed(MessageContext incoming, GroupConfig group) throws SecurityRefusal {
        SOAPEnvelope envelope = incoming.getEnvelope();
        RequestAuthenticatorHeader request = RequestAuthenticatorHeader.read(envelope);
        if (request != null) {
            String client = verifyRequest(envelope, request, group, request.coversBytes()
                    ? ReceivedBytes.plainOf(incoming) : null);
            return new AuthenticatedParty(client, trust().registered(client).orElseThrow(() -> new SecurityRefusal(
                    RefusalReason.UNKNOWN_PEER, "the truststore registers no certificate for " + client)));
        }
        List<AuthenticatorHeader> headers = AuthenticatorHeader.readAll(envelope);
        if (headers.isEmpty()) {
            return wsSecurity.apply(group).verify(incoming);
        }
        AuthenticatorHeader header = addressedHere(headers);
        String from = verify(envelope, header, AuthenticatorHeader.macs(headers), group,
                Exchange.expectedSenderOf(incoming, group), incoming,
                header.coversBytes() ? ReceivedBytes.plainOf(incoming) : null);
        return new AuthenticatedParty(from, trust().registered(from).orElseThrow(() -> new SecurityRefusal(
                RefusalReason.UNKNOWN_PEER, "the truststore registers no certificate for " + from)));
    }

    /**
     * Checks this node's entry of a client's request authenticator and returns the client's name as the config spells
     * it. The sender must be a client of the deployment sharing a key with this node, which must be a node of
     * {@code group}.
     *
     * @param bytes the request's bytes as received when the header says it covers them (null: none, or not plain
     *              UTF-8 XML, which is refused then)
     */
    private String verifyRequest(SOAPEnvelope envelope, RequestAuthenticatorHeader header, GroupConfig group,
                                 byte[] bytes) throws SecurityRefusal {
        String client = verifyEntry(header, group, c -> header.coversBytes()
                ? MacInput.ofRequestBytes(group.service(), c, ByteSeal.blanked(received(bytes),
                List.copyOf(header.entries().values())))
                : MacInput.ofRequest(group.service(), c, envelope));
        RequestAuthenticatorHeader.find(envelope).setProcessed();
        return client;
    }

    /**
     * The client whose authenticator {@code header} is, when this node's entry verifies over what
     * {@code input} makes of the client's name; SecurityRefusal otherwise, with the reason.
     */
    private String verifyEntry(RequestAuthenticatorHeader header, GroupConfig group,
                               java.util.function.Function<String, byte[]> input) throws SecurityRefusal {
        String node = Exchange.nodeNamed(group, self);
        if (node == null) {
            throw new SecurityRefusal(RefusalReason.MISDIRECTED, "a client's request authenticator reached " + self
                    + ", which is no node of group " + group.service());
        }
        String client = Exchange.requesterOf(config, group, header.from());
        if (client == null || !keys().sharesKeyWith(client)) {
            throw new SecurityRefusal(RefusalReason.UNKNOWN_PEER, "'" + header.from() + "' is not a client (or caller replica) of the"
                    + " deployment that shares a key with " + self);
        }
        byte[] entry = header.entryFor(node).orElseThrow(() -> new SecurityRefusal(RefusalReason.MISDIRECTED,
                "the request authenticator of " + client + " has no entry for " + node));
        byte[] macInput;
        try {
            macInput = input.apply(client);
        } catch (RuntimeException e) {
            throw malformed(e, "");
        }
        if (!keys().verify(client, macInput, entry)) {
            throw new SecurityRefusal(RefusalReason.MAC_MISMATCH, "the entry for " + node + " of " + client
                    + "'s request authenticator");
        }
        return client;
    }

    /** What a relayed request's authenticator says at this node. */
    public record RelayedRequest(String client, String sequenceId, long messageNumber) {
    }

    /**
     * For a replica that got a client's request from another replica (a PBFT ForwardedRequests): whether its own
     * entry of the request's authenticator verifies over the request's exact bytes, and if so who sent it and which
     * WS-RM position it covers. Empty when the request carries no request authenticator (it is WS-Security signed);
     * SecurityRefusal when it carries one that does not verify here: the request may still be genuine (a faulty
     * client can make some entries wrong), so the caller takes it as a body only, not as a refusal of the relayer.
     */
    public Optional<RelayedRequest> authenticateRelayed(byte[] payload, GroupConfig group) throws SecurityRefusal {
        if (ReceivedBytes.isPlainUtf8Xml(payload)) {
            // the MAC covers the bytes: what it needs is in the header, read in one pass that stops at the Body
            SoapHeader soap;
            try {
                soap = SoapHeader.read(payload);
            } catch (MalformedSoap e) {
                throw new SecurityRefusal(RefusalReason.MALFORMED, "not a SOAP request: " + e.getMessage());
            }
            RequestAuthenticatorHeader header = RequestAuthenticatorHeader.read(soap);
            if (header == null) {
                return Optional.empty();
            }
            if (header.coversBytes()) {
                String client = verifyEntry(header, group, c -> MacInput.ofRequestBytes(group.service(), c,
                        ByteSeal.blanked(payload, List.copyOf(header.entries().values()))));
                try {
                    return Optional.of(relayed(client, MacInput.SequencePosition.of(soap)));
                } catch (RuntimeException e) {
                    throw malformed(e, "not a SOAP request: ");
                }
            }
        }
        SOAPEnvelope envelope;
        try {
            envelope = org.apache.axiom.om.OMXMLBuilderFactory.createSOAPModelBuilder(
                    new java.io.ByteArrayInputStream(payload), null).getSOAPEnvelope();
            RequestAuthenticatorHeader header = RequestAuthenticatorHeader.read(envelope);
            if (header == null) {
                return Optional.empty();
            }
            String client = verifyRequest(envelope, header, group,
                    ReceivedBytes.isPlainUtf8Xml(payload) ? payload : null);
            return Optional.of(relayed(client, MacInput.SequencePosition.of(envelope)));
        } catch (RuntimeException e) {
            throw malformed(e, "not a SOAP request: ");
        }
    }

    private static RelayedRequest relayed(String client, MacInput.SequencePosition position) throws SecurityRefusal {
        if (position == null) {
            throw new SecurityRefusal(RefusalReason.MALFORMED, "a relayed request without wsrm:Sequence");
        }
        return new RelayedRequest(client, position.id(), position.number());
    }

    /**
     * The deployment client whose request authenticator {@code request} carries, when this party shares a MAC key
     * with it; empty otherwise (a WS-Security signed request, an unknown name). It says only whom the request names:
     * a caller uses it for a request whose authenticity is established already (ordered by the group).
     */
    public Optional<String> namedClient(SOAPEnvelope request) {
        try {
            RequestAuthenticatorHeader header = RequestAuthenticatorHeader.read(request);
            String client = header == null ? null : Exchange.clientNamed(config, header.from());
            return client != null && keys().sharesKeyWith(client) ? Optional.of(client) : Optional.empty();
        } catch (SecurityRefusal | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * For a client's Voter: the name of the node that MAC-authenticated
     * {@code reply} for this client; empty when the reply carries no authenticator (it must then be WS-Security
     * signed); SecurityRefusal when it carries one that does not verify.
     * The reply is the envelope the Voter parsed from {@code bytes} with {@code charset} (its content type's, null
     * for none): a MAC over the bytes holds only when they are plain UTF-8 XML, so that what is voted on is what
     * was MACed; one over the canonical form is checked on that very envelope.
     */
    public Optional<String> authenticateReply(SOAPEnvelope reply, byte[] bytes, String charset, GroupConfig group)
            throws SecurityRefusal {
        try {
            List<AuthenticatorHeader> headers = AuthenticatorHeader.readAll(reply);
            if (headers.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(verify(reply, addressedHere(headers), AuthenticatorHeader.macs(headers), group, null,
                    null, ReceivedBytes.readAlike(bytes, charset) ? bytes : null));
        } catch (RuntimeException e) {
            throw malformed(e, "the reply is not a SOAP envelope: ");
        }
    }

    /**
     * Checks {@code header} on a message this party received and returns its sender's name as the config spells it.
     * A node accepts authenticators from its group's other nodes; a client from the group's nodes (their replies).
     *
     * @param expected the node the answered request went to, or null when any node may answer
     * @param incoming the message's context, to leave the decoded bundle in; may be null
     * @param bytes    the message's bytes when the header covers them and they are plain UTF-8 XML, else null
     */
    private String verify(SOAPEnvelope envelope, AuthenticatorHeader header, List<byte[]> macs, GroupConfig group,
                          String expected, MessageContext incoming, byte[] bytes) throws SecurityRefusal {
        String receiver = Exchange.isNode(group, self) ? Exchange.nodeNamed(group, self)
                : Exchange.requesterOf(config, group, self);
        if (receiver == null) {
            throw new SecurityRefusal(RefusalReason.UNKNOWN_PEER, self + " is neither a node of group "
                    + group.service() + " nor a client or caller replica of it, and shares no MAC keys with it");
        }
        if (!header.to().equalsIgnoreCase(self)) {
            throw new SecurityRefusal(RefusalReason.MISDIRECTED, "made for " + header.to() + ", received by " + self);
        }
        String from = Exchange.nodeNamed(group, header.from());
        if (from == null || from.equalsIgnoreCase(self) || !keys().sharesKeyWith(from)) {
            throw new SecurityRefusal(RefusalReason.UNKNOWN_PEER, "'" + header.from() + "' is not a peer of " + self
                    + " in group " + group.service());
        }
        if (expected != null && !expected.equalsIgnoreCase(from)) {
            throw new SecurityRefusal(RefusalReason.MISDIRECTED, "an answer from " + from + " to a request sent to "
                    + expected);
        }
        WireBundle bundle = null;
        byte[] input;
        try {
            if (header.coversBytes()) {
                input = MacInput.ofBytes(group.service(), from, receiver, ByteSeal.blanked(received(bytes), macs));
            } else {
                bundle = bundleOf(envelope, group);
                input = MacInput.of(group.service(), from, receiver, envelope, bundle);
            }
        } catch (WireFormatException e) {
            throw new SecurityRefusal(RefusalReason.MALFORMED_PBFT, e.getMessage(), e);
        } catch (RuntimeException e) {
            // a bad wsrm:Sequence, XML nested too deep, or XML that is not well formed where AXIOM parses lazily
            throw malformed(e, "");
        }
        if (!keys().verify(from, input, header.mac())) {
            throw new SecurityRefusal(RefusalReason.MAC_MISMATCH, "claimed sender " + from);
        }
        MacHeaderBlocks.all(envelope, AuthenticatorHeader.NAME).forEach(SOAPHeaderBlock::setProcessed);
        if (bundle != null && incoming != null) {
            incoming.setProperty(WireBundle.PROPERTY, bundle);
        }
        return from;
    }

    /** {@code bytes}, which a MAC over the bytes needs; IllegalArgumentException (MALFORMED) when there are none. */
    private static byte[] received(byte[] bytes) {
        if (bytes == null) {
            throw new IllegalArgumentException("its authenticator covers the bytes, which must be plain UTF-8 XML (no"
                    + " other charset, byte-order mark or declared encoding)");
        }
        return bytes;
    }

    /**
     * The bundle an outgoing body carries: the one its sender encoded, when it says so for this very element (a
     * wrong one would only make the receiver refuse the MAC), else decoded from the body.
     */
    private WireBundle outgoingBundle(MessageContext outgoing, SOAPEnvelope envelope, GroupConfig group)
            throws WireFormatException {
        if (outgoing.getProperty(WireBundle.OUTGOING) instanceof WireBundle.Sent sent) {
            for (Iterator<OMElement> it = envelope.getBody().getChildElements(); it.hasNext(); ) {
                if (it.next() == sent.element() && !it.hasNext()) {
                    return sent.bundle();
                }
            }
        }
        return bundleOf(envelope, group);
    }

    /** The decoded {@code pbft:Messages} of the body; null when the body holds none, refused when it holds two. */
    private WireBundle bundleOf(SOAPEnvelope envelope, GroupConfig group) throws WireFormatException {
        OMElement found = null;
        if (envelope.getBody() == null) {
            throw new IllegalArgumentException("the envelope has no soapenv:Body");
        }
        for (Iterator<OMElement> it = envelope.getBody().getChildElements(); it.hasNext(); ) {
            OMElement e = it.next();
            if (WireNames.MESSAGES.equals(e.getQName())) {
                if (found != null) {
                    throw new WireFormatException("soapenv:Body", "two pbft:Messages elements; one carries them all");
                }
                found = e;
            }
        }
        if (found == null) {
            return null;
        }
        BundleCodec codec = codecs.computeIfAbsent(group.service(), s -> new BundleCodec(WireLimits.forGroup(group)));
        return codec.decode(found);
    }

    /**
     * The refusal for {@code e} thrown while reading a received message: IllegalArgumentException is this profile's
     * own (a bad wsrm:Sequence, XML nested too deep), the others the XML parser's ({@link MalformedXml}); anything
     * else is a bug and is thrown on.
     */
    private static SecurityRefusal malformed(RuntimeException e, String prefix) {
        if (!(e instanceof IllegalArgumentException) && !MalformedXml.isParserRefusal(e)) {
            throw e;
        }
        return new SecurityRefusal(RefusalReason.MALFORMED, prefix + e.getMessage(), e);
    }

    /** This party's pairwise keys: a node's with its peers and clients, a client's with the nodes. */
    private PairwiseKeys keys() {
        PairwiseKeys k = keys;
        if (k == null) {
            java.nio.file.Path store = config.keystoreOf(self).orElseThrow(() -> new IllegalStateException(self + " is neither a node nor a client: it holds"
                            + " no MAC keys"));
            char[] password = config.keys().storePassword().toCharArray();
            k = new PairwiseKeys(PartyKeystore.load(store, self, password));
            keys = k;
        }
        return k;
    }

    private DeploymentTrust trust() {
        DeploymentTrust t = trust;
        if (t == null) {
            t = DeploymentTrust.load(config.keys().truststore(), config.keys().storePassword().toCharArray());
            trust = t;
        }
        return t;
    }
}
