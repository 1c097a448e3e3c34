package org.bftws.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.axiom.om.OMXMLBuilderFactory;
import org.apache.axiom.soap.SOAPEnvelope;
import org.bftws.core.Destination;
import org.bftws.core.Membership;
import org.bftws.core.Message;
import org.bftws.core.Node;
import org.bftws.core.Output;
import org.bftws.core.ReplicaOptions;
import org.bftws.core.Request;
import org.bftws.core.RequestId;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real PBFT core of four replicas, every message between them carried the way the adapter will carry it: the
 * sender signs its own transferable parts and encodes with its signature cache (signatures required), the bytes go
 * as XML text, the receiver decodes and runs verifyProofs against its own cache before the core sees the message.
 * The primary then crashes, so view-changes with prepared certificates and checkpoint proofs and a new-view with
 * re-proposals travel too. Everything the core produces must pass, and the group must keep executing.
 */
class CoreOverTheWireTest {
    @TempDir
    static Path dir;
    static KeyedGroup group;
    static final String SEQUENCE = "urn:uuid:seq-core";

    @BeforeAll
    static void keys() {
        group = new KeyedGroup(dir, "mac", "EchoService");
    }

    private record InFlight(int from, int to, Message message) {
    }

    private final Node[] nodes = new Node[4];
    private final SignatureCache[] caches = new SignatureCache[4];
    private final MessageSigner[] signers = new MessageSigner[4];
    private final ProofVerifier[] verifiers = new ProofVerifier[4];
    private final Deque<InFlight> network = new ArrayDeque<>();
    private final Map<MessageKind, Integer> carried = new EnumMap<>(MessageKind.class);
    private final BundleCodec codec = new BundleCodec(WireLimits.of(4, 2, 8));
    private int crashed = -1;
    private int mostCertificates;
    private int mostProofCheckpoints;
    private int mostReproposals;

    @Test
    void everyMessageTheCoreSendsSurvivesTheWireAndItsProofsThroughAViewChange() throws Exception {
        Membership membership = Membership.configurationI(1);
        ReplicaOptions options = new ReplicaOptions(4, 8, 2, 0, 2, 40, 15, 10, 64);
        for (int i = 0; i < 4; i++) {
            nodes[i] = Node.create(i, membership, options);
            caches[i] = new SignatureCache(10_000);
            signers[i] = group.signer(i);
            verifiers[i] = group.verifier(caches[i]);
        }
        List<Request> requests = new ArrayList<>();
        for (int n = 1; n <= 14; n++) {
            requests.add(signedRequest(n));
        }
        for (int n = 0; n < 9; n++) {
            for (int i = 0; i < 4; i++) {
                handle(i, nodes[i].onRequest(requests.get(n)));
            }
        }
        run(60);
        long beforeCrash = nodes[1].lastExecuted();
        assertTrue(beforeCrash >= 4, "the group executes with every message over the wire: " + beforeCrash);

        crashed = 0; // the primary of view 0 stops; the rest must change view and go on
        for (int n = 9; n < 14; n++) {
            for (int i = 1; i < 4; i++) {
                handle(i, nodes[i].onRequest(requests.get(n)));
            }
        }
        run(600);
        for (int i = 1; i < 4; i++) {
            assertTrue(nodes[i].view() >= 1, "node " + i + " moved past view 0");
            assertTrue(nodes[i].lastExecuted() > beforeCrash, "node " + i + " executed after the view change");
        }
        for (MessageKind k : List.of(MessageKind.PRE_PREPARE, MessageKind.PREPARE, MessageKind.COMMIT,
                MessageKind.CHECKPOINT, MessageKind.VIEW_CHANGE, MessageKind.NEW_VIEW, MessageKind.STATUS)) {
            assertTrue(carried.getOrDefault(k, 0) > 0, k + " travelled over the wire; carried: " + carried);
        }
        assertTrue(mostCertificates > 0 && mostProofCheckpoints >= 3 && mostReproposals > 0, "view-changes carried up to "
                + mostCertificates + " certificates and " + mostProofCheckpoints + " proof checkpoints, the new-view "
                + mostReproposals + " re-proposals");
        for (int i = 1; i < 4; i++) {
            assertEquals(0, caches[i].evictions());
        }
        System.out.println("carried over the wire: " + carried + "; views " + nodes[1].view() + "/" + nodes[2].view()
                + "/" + nodes[3].view() + ", executed " + nodes[1].lastExecuted() + "/" + nodes[2].lastExecuted() + "/"
                + nodes[3].lastExecuted() + "; most certificates in a view-change " + mostCertificates
                + ", proof checkpoints " + mostProofCheckpoints + ", re-proposals " + mostReproposals);
    }

    private void run(int ticks) throws Exception {
        for (int t = 0; t < ticks; t++) {
            while (!network.isEmpty()) {
                InFlight f = network.poll();
                if (f.to() == crashed || f.from() == crashed) {
                    continue;
                }
                handle(f.to(), nodes[f.to()].onMessage(overTheWire(f)));
            }
            for (int i = 0; i < 4; i++) {
                if (i != crashed) {
                    handle(i, nodes[i].onTick());
                }
            }
        }
    }

    /** Sender encodes with what it signed and verified; receiver decodes and verifies; the core gets the result. */
    private Message overTheWire(InFlight f) throws Exception {
        signers[f.from()].signOwnParts(f.message(), caches[f.from()]);
        StringWriter xml = new StringWriter();
        codec.encode(List.of(f.message()), caches[f.from()], true, Xml.FACTORY, null).serialize(xml);
        WireMessage received = codec.decode(Xml.parse(xml.toString())).messages().get(0);
        verifiers[f.to()].verifyProofs(received, f.from());
        carried.merge(MessageKind.of(received.message()), 1, Integer::sum);
        if (received.message() instanceof org.bftws.core.ViewChange vc) {
            mostCertificates = Math.max(mostCertificates, vc.prepared().size());
            mostProofCheckpoints = Math.max(mostProofCheckpoints, vc.stableProof().size());
        } else if (received.message() instanceof org.bftws.core.NewView nv) {
            mostReproposals = Math.max(mostReproposals, nv.prePrepares().size());
        }
        assertEquals(java.util.Arrays.toString(CanonicalForm.of(f.message())),
                java.util.Arrays.toString(CanonicalForm.of(received.message())));
        return received.message();
    }

    /** Carries out a node's outputs in order, as the adapter must: executions report back before what follows. */
    private void handle(int node, List<Output> outputs) {
        for (Output o : outputs) {
            if (o instanceof Output.Send s) {
                for (int to : recipients(node, s.to())) {
                    network.add(new InFlight(node, to, s.message()));
                }
            } else if (o instanceof Output.Execute e) {
                List<byte[]> results = e.requests().stream().map(r -> ("done " + r.id()).getBytes(StandardCharsets.UTF_8))
                        .toList();
                handle(node, nodes[node].onExecuted(e.seq(), results));
            } else if (o instanceof Output.TakeCheckpoint c) {
                handle(node, nodes[node].onCheckpointState(c.seq(), ("state " + c.seq()).getBytes(StandardCharsets.UTF_8)));
            } else if (o instanceof Output.InstallState s) {
                handle(node, nodes[node].onStateInstalled(s.seq()));
            }
        }
    }

    private static List<Integer> recipients(int from, Destination to) {
        if (to instanceof Destination.Node n) {
            return List.of(n.id());
        } else if (to instanceof Destination.Client) {
            return List.of();
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            if (i != from) {
                all.add(i);
            }
        }
        return all;
    }

    /** Request {@code n} of the client's sequence: the exact bytes of its signed SOAP envelope. */
    private static Request signedRequest(long n) throws Exception {
        String xml = "<soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                + " xmlns:wsa=\"http://www.w3.org/2005/08/addressing\""
                + " xmlns:wsrm=\"http://docs.oasis-open.org/ws-rx/wsrm/200702\"><soapenv:Header>"
                + "<wsa:To>http://group.bftws.test/axis2/services/EchoService</wsa:To>"
                + "<wsa:MessageID>urn:uuid:core-" + n + "</wsa:MessageID><wsa:Action>urn:echo</wsa:Action>"
                + "<wsrm:Sequence><wsrm:Identifier>" + SEQUENCE + "</wsrm:Identifier><wsrm:MessageNumber>" + n
                + "</wsrm:MessageNumber></wsrm:Sequence></soapenv:Header><soapenv:Body>"
                + "<ns:echo xmlns:ns=\"http://echo.bftws.org\"><ns:text>request " + n + "</ns:text></ns:echo>"
                + "</soapenv:Body></soapenv:Envelope>";
        SOAPEnvelope env = OMXMLBuilderFactory.createSOAPModelBuilder(new StringReader(xml)).getSOAPEnvelope();
        StringWriter signed = new StringWriter();
        group.wsSecurity("client1").sign(env).serialize(signed);
        return new Request(new RequestId(SEQUENCE, n), signed.toString().getBytes(StandardCharsets.UTF_8));
    }
}
