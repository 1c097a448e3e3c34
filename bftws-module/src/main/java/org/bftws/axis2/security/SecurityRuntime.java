package org.bftws.axis2.security;

import org.bftws.security.MessageAuthenticator;
import org.bftws.security.RefusalBudget;
import org.bftws.security.RefusalCounter;
import org.bftws.security.SecurityRefusal;
import org.bftws.security.SignedEnvelope;
import org.bftws.security.WsSecurity;
import org.bftws.security.WsSecurityAuthenticator;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.axis2.addressing.EndpointReference;
import org.apache.axis2.context.ConfigurationContext;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.context.OperationContext;
import org.apache.axis2.description.AxisModule;
import org.apache.axis2.description.Parameter;
import org.apache.axis2.wsdl.WSDLConstants;
import org.bftws.config.GroupConfig;
import org.bftws.config.KeyFileCheck;
import org.bftws.config.LimitsConfig;
import org.bftws.config.ReplicasConfig;
import org.bftws.config.ReplicasConfigReader;
import org.bftws.config.SecurityProfile;

/**
 * The security state of one Axis2 node (replica or client): who it is, the deployment, one authenticator per
 * profile and the refusal counters. BftModule installs it at start-up with {@link #install}; without that, the
 * handler builds it from the bftws module parameters {@code replicasConfig} and {@code party} ({@link #of}).
 */
public final class SecurityRuntime {
    /** ConfigurationContext property under which the runtime lives. */
    public static final String CONTEXT_PROPERTY = SecurityRuntime.class.getName();
    /**
     * Property (Boolean) of a request the node makes to its own service and whose reply never leaves it (the
     * checkpoint's {@code get_state}, state transfer's {@code set_state}): the reply is not signed. Set by code only,
     * never from a message.
     */
    public static final String REPLY_STAYS_LOCAL = "org.bftws.security.replyStaysLocal";
    /** bftws module parameters (module.xml, axis2.xml moduleConfig) or system properties bftws.NAME. */
    public static final String PARAM_REPLICAS = "replicasConfig";
    public static final String PARAM_PARTY = "party";
    /**
     * Which service this node serves, for an agreement node of an {@code <agreementGroup>} (it orders several
     * services, one Axis2 node each); not needed when the party is a node of one group.
     */
    public static final String PARAM_SERVICE = "service";
    private static final String MODULE_NAME = "bftws";

    /**
     * Whether {@code m} came to a service of this node that does not engage the module {@code handler} belongs to.
     * When the module is engaged in one service's services.xml rather than in axis2.xml, Axis2 still puts its handlers
     * of the global phases (Transport, Security, PreDispatch) into the node's global phases, where they see every
     * message; for a service without the module they must stay out of the way (that service answers plain SOAP).
     * The module is the handler's own (its description's parent), whatever its archive is called (a node may deploy
     * the security handler in a module of its own); false before dispatch (the service is not known yet) and on a
     * client.
     */
    public static boolean forServiceWithoutModule(MessageContext m, org.apache.axis2.engine.Handler handler) {
        org.apache.axis2.description.AxisService service = m.getAxisService();
        return m.isServerSide() && service != null && !engages(service, moduleOf(handler));
    }

    /** The module that deployed {@code handler}, or null when it was added some other way. */
    private static org.apache.axis2.description.AxisModule moduleOf(org.apache.axis2.engine.Handler handler) {
        org.apache.axis2.description.HandlerDescription d = handler.getHandlerDesc();
        return d != null && d.getParent() instanceof org.apache.axis2.description.AxisModule module ? module : null;
    }

    /** Whether {@code service} engages the bftws module (by its name: an archive name carries a version from a jar). */
    public static boolean engages(org.apache.axis2.description.AxisService service) {
        return service.getEngagedModules().stream().anyMatch(m -> MODULE_NAME.equals(m.getName()));
    }

    private static boolean engages(org.apache.axis2.description.AxisService service,
                                   org.apache.axis2.description.AxisModule module) {
        return module == null ? engages(service) : service.getEngagedModules().stream()
                .anyMatch(m -> m == module || m.getName().equals(module.getName()));
    }

    private final ReplicasConfig config;
    private final String self;
    private final Optional<GroupConfig> ownGroup;
    private final Map<SecurityProfile, MessageAuthenticator> authenticators = new EnumMap<>(SecurityProfile.class);
    private final RefusalCounter refusals = new RefusalCounter();
    private final RefusalBudget refusalBudget;

    /** @param self this node's or client's name in {@code config}; null for a party without keys */
    public SecurityRuntime(ReplicasConfig config, String self) {
        this(config, self, null);
    }

    /**
     * @param service the service this node serves when {@code self} orders several ({@code <agreementGroup>});
     *                null otherwise
     */
    public SecurityRuntime(ReplicasConfig config, String self, String service) {
        if (self != null && !config.partyNames().contains(self)) {
            throw new IllegalArgumentException("replicas.xml names no node or client '" + self + "'");
        }
        this.config = config;
        this.self = self;
        this.ownGroup = self == null ? Optional.empty() : config.groupOfNode(self, service);
        this.refusalBudget = new RefusalBudget(ownGroup.map(GroupConfig::limits).orElse(LimitsConfig.defaults())
                .refusalsPerSecondPerAddress());
        if (self != null) {
            authenticators.put(SecurityProfile.WSSEC, new WsSecurityAuthenticator(config, self));
            // mac: HMAC between the nodes of a group, WS-Security for everything else (keys load on first use)
            authenticators.put(SecurityProfile.MAC, new org.bftws.security.mac.MacAuthenticator(config, self,
                    this::wsSecurity));
        }
    }

    /** Makes {@code runtime} the one every SecurityHandler of {@code context} uses. */
    public static SecurityRuntime install(ConfigurationContext context, SecurityRuntime runtime) {
        context.setProperty(CONTEXT_PROPERTY, runtime);
        return runtime;
    }

    /**
     * The runtime of {@code context}, built on first use from the bftws module's parameters {@code replicasConfig}
     * and {@code party} (system properties {@code bftws.replicasConfig} and {@code bftws.party} win, as for the rest
     * of the module). No replicas.xml means no groups and so nothing to protect; a replicas.xml whose groups need
     * keys without a party name is refused (IllegalStateException), because such a node could not check anything.
     */
    public static synchronized SecurityRuntime of(ConfigurationContext context) {
        Object existing = context.getProperty(CONTEXT_PROPERTY);
        if (existing instanceof SecurityRuntime runtime) {
            return runtime;
        }
        String replicas = setting(context, PARAM_REPLICAS);
        String party = setting(context, PARAM_PARTY);
        String service = setting(context, PARAM_SERVICE);
        if (replicas == null) {
            return install(context, new SecurityRuntime(new ReplicasConfig(List.of(), List.of()), null));
        }
        ReplicasConfig config = ReplicasConfigReader.read(Path.of(replicas),
                party == null ? KeyFileCheck.none() : KeyFileCheck.forParty(party));
        if (party == null && config.groups().stream().anyMatch(g -> g.security().needsKeys())) {
            throw new IllegalStateException(replicas + " protects its groups with signatures or MACs, but this node"
                    + " has no party name: set the bftws module parameter '" + PARAM_PARTY + "' or -Dbftws."
                    + PARAM_PARTY + " to its node or client name");
        }
        return install(context, new SecurityRuntime(config, party, service));
    }

    private static String setting(ConfigurationContext context, String name) {
        return org.bftws.axis2.settings.ModuleParameters.value(context.getAxisConfiguration(), name);
    }

    /** Plugs in (or replaces) the authenticator of a profile; {@code wssec} and {@code mac} are built in. */
    public void register(SecurityProfile profile, MessageAuthenticator authenticator) {
        authenticators.put(profile, authenticator);
    }

    public Optional<MessageAuthenticator> authenticator(SecurityProfile profile) {
        return Optional.ofNullable(authenticators.get(profile));
    }

    /**
     * Authenticates an outgoing message of {@code group} again after it changed outside the flow (a read-only request
     * a client sends again as an ordered one), as the security handler did: a fresh request authenticator in
     * {@code mac}; nothing in {@code none}. Not for {@code wssec}, whose signed envelope cannot be changed afterwards.
     */
    public void protectAgain(MessageContext outgoing, GroupConfig group) throws SecurityRefusal {
        SecurityProfile profile = group.security().profile();
        if (profile == SecurityProfile.NONE) {
            return;
        }
        if (profile == SecurityProfile.WSSEC) {
            throw new IllegalStateException("a WS-Security signed request cannot be changed and signed again");
        }
        outgoing.removeProperty(SignedEnvelope.PROPERTY);
        authenticator(profile).orElseThrow(() -> new IllegalStateException("no authenticator for profile " + profile))
                .protect(outgoing, group);
    }

    /** This party's mac profile; empty for a party without a name (it has no keys). */
    public Optional<org.bftws.security.mac.MacAuthenticator> macProfile() {
        return authenticators.get(SecurityProfile.MAC) instanceof org.bftws.security.mac.MacAuthenticator m
                ? Optional.of(m) : Optional.empty();
    }

    /** This party's wssec profile for {@code group}: the programmatic sign / verify API. */
    public WsSecurity wsSecurity(GroupConfig group) {
        if (!(authenticators.get(SecurityProfile.WSSEC) instanceof WsSecurityAuthenticator wssec)) {
            throw new IllegalStateException("this node has no party name, so no keys to sign with");
        }
        return wssec.security(group);
    }

    public RefusalCounter refusals() { return refusals; }

    /**
     * How many refusals this node still answers per remote address (its group's
     * {@code limits/@refusalsPerSecondPerAddress}); beyond it a refused request's connection is closed unanswered.
     */
    public RefusalBudget refusalBudget() { return refusalBudget; }

    /**
     * WS-Security signatures this party made so far, every group together: public-key operations, which a node makes
     * only for parties it authenticated that share no MAC key with it (and, in {@code wssec}, for every authenticated
     * party), never for a refusal.
     */
    public long signaturesMade() {
        return authenticators.get(SecurityProfile.WSSEC) instanceof WsSecurityAuthenticator wssec
                ? wssec.signaturesMade() : 0;
    }

    public String self() { return self; }

    /** The group this node serves (for an agreement node of several services, the one of its 'service'). */
    public Optional<GroupConfig> ownGroup() { return ownGroup; }

    public ReplicasConfig config() { return config; }

    private org.bftws.tls.DeploymentTls tls;

    /**
     * The certificates this party's keys depend on, by what operators call them ({@code party certificate},
     * {@code deployment CA}): their expiry dates are what to watch. Empty for a party without keys.
     */
    public java.util.Map<String, java.security.cert.X509Certificate> certificates() {
        java.util.Map<String, java.security.cert.X509Certificate> m = new java.util.LinkedHashMap<>();
        if (self == null || config.keys() == null || config.keys().storePassword() == null) {
            return m;
        }
        try {
            char[] password = config.keys().storePassword().toCharArray();
            config.keystoreOf(self).ifPresent(store -> m.put("party certificate",
                    org.bftws.security.PartyKeystore.load(store, self, password).certificate()));
            org.bftws.security.DeploymentTrust.load(config.keys().truststore(), password).ca()
                    .ifPresent(ca -> m.put("deployment CA", ca));
        } catch (RuntimeException e) {
            return m; // no keys on this node (a profile without them): nothing expires
        }
        return m;
    }

    /**
     * This party's TLS (replicas.xml's {@code <tls>}), built on first use from its keystore and the deployment CA;
     * empty when the deployment runs no TLS or this party has no keys.
     */
    public synchronized Optional<org.bftws.tls.DeploymentTls> tls() {
        if (tls == null && config.tlsOn() && self != null && config.keys() != null) {
            char[] password = config.keys().storePassword().toCharArray();
            java.nio.file.Path store = config.keystoreOf(self).orElseThrow(() -> new IllegalStateException(
                    "replicas.xml names no keystore for " + self + ", which TLS needs"));
            org.bftws.security.PartyKeystore keys = org.bftws.security.PartyKeystore.load(store, self, password);
            java.security.cert.X509Certificate ca = org.bftws.security.DeploymentTrust.load(config.keys().truststore(),
                    password).ca().orElseThrow(() -> new IllegalStateException("the truststore "
                    + config.keys().truststore() + " holds no CA certificate, which TLS needs: run ./bftws keygen"));
            tls = org.bftws.tls.DeploymentTls.of(config.tls(), keys, ca);
        }
        return Optional.ofNullable(tls);
    }

    /**
     * The group whose rules apply to an outgoing message: the group it is addressed to (group endpoint or one of its
     * nodes), else, for a node, its own group (replies and messages to anonymous addresses).
     */
    public Optional<GroupConfig> groupForOutgoing(MessageContext message) {
        return groupAddressed(message.getTo()).or(() -> ownGroup);
    }

    /**
     * A node judges the requests it receives by its own group's rules; a response to a request it sent, and anything a
     * client receives, by those of the group the request went to.
     */
    public Optional<GroupConfig> groupForIncoming(MessageContext message) {
        if (ownGroup.isPresent() && message.isServerSide()) {
            return ownGroup;
        }
        // a response to a request this node sent: the group that request went to (a replica's nested call to another
        // group gets that group's reply, authenticated as that group's)
        Optional<GroupConfig> addressed = groupOfRequestAnswered(message);
        return addressed.isPresent() ? addressed : ownGroup;
    }

    private Optional<GroupConfig> groupOfRequestAnswered(MessageContext message) {
        OperationContext op = message.getOperationContext();
        MessageContext request = null;
        try {
            request = op == null ? null : op.getMessageContext(WSDLConstants.MESSAGE_LABEL_OUT_VALUE);
        } catch (org.apache.axis2.AxisFault e) {
            // no request in this exchange
        }
        return request == null ? Optional.empty() : groupAddressed(request.getTo());
    }

    private Optional<GroupConfig> groupAddressed(EndpointReference to) {
        if (to == null || to.getAddress() == null || to.hasAnonymousAddress() || to.hasNoneAddress()) {
            return Optional.empty();
        }
        try {
            URI uri = new URI(to.getAddress());
            return config.groupByEndpoint(uri).or(() -> config.groupByNodeEndpoint(uri));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
