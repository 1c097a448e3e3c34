package org.bftws.server.gateway;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.bftws.config.GroupConfig;
import org.bftws.tls.DeploymentTls;
import org.bftws.config.NodeConfig;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The WSDL the gateway serves for a group at {@code /axis2/services/S?wsdl}, with every port's address (WSDL 1.1
 * {@code soap:address}, {@code soap12:address}, {@code http:address}) replaced by the gateway's own, so a client
 * generated from it calls the gateway. Where it comes from:
 * <ul>
 * <li>a file given with {@code --wsdl S=FILE}, read once at start;</li>
 * <li>otherwise the group itself: every node serves its service's WSDL at {@code serviceEndpoint?wsdl} (Axis2 does),
 * each with its own address in it; once those addresses are replaced, f+1 nodes must serve the same document, so one
 * faulty replica cannot hand the caller a different contract. Fetched on the first request that asks, and kept once
 * agreed.</li>
 * </ul>
 */
final class GroupWsdl {

    /** Stands for the gateway's address until a request says which address the caller used. */
    private static final String ADDRESS_MARK = "urn:bftws:gateway:address";
    private static final List<String> ADDRESS_NAMESPACES = List.of("http://schemas.xmlsoap.org/wsdl/soap/",
            "http://schemas.xmlsoap.org/wsdl/soap12/", "http://schemas.xmlsoap.org/wsdl/http/");

    private final GroupConfig group;
    private final Path file;
    private final HttpClient http;
    private final DeploymentTls tls;
    private String agreed;

    /** @param file the WSDL to serve, or null to fetch it from the group's nodes */
    GroupWsdl(GroupConfig group, Path file) throws IOException {
        this(group, file, null);
    }

    /**
     * @param tls the gateway's party TLS, with which it fetches the WSDL from https:// nodes (each must present the
     *            certificate of the node replicas.xml puts there); null without {@code <tls>}
     */
    GroupWsdl(GroupConfig group, Path file, DeploymentTls tls) throws IOException {
        this.group = group;
        this.file = file;
        this.tls = tls;
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (tls != null) {
            client.sslContext(tls.context()).sslParameters(tls.parameters(false));
        }
        this.http = file == null ? client.build() : null;
        if (file != null) {
            try {
                agreed = withAddress(Files.readAllBytes(file));
            } catch (IllegalArgumentException e) {
                throw new IOException("--wsdl " + group.service() + "=" + file + ": " + e.getMessage(), e);
            }
        }
    }

    /** The WSDL with {@code address} (the gateway's URL of this service) in every port. */
    String document(String address) throws CallerFault {
        return agreed().replace(ADDRESS_MARK, address);
    }

    private synchronized String agreed() throws CallerFault {
        if (agreed == null) {
            agreed = fetchFromGroup();
        }
        return agreed;
    }

    /** Null when {@code response} came from node {@code name} (or over plain HTTP); else who answered instead. */
    private String impostor(String name, HttpResponse<byte[]> response) {
        if (tls == null || response.sslSession().isEmpty()) {
            return null;
        }
        String presented = DeploymentTls.peerName(response.sslSession().get());
        if (name.equalsIgnoreCase(presented)) {
            return null;
        }
        String problem = response.uri().getHost() + ":" + response.uri().getPort() + " is " + name
                + " in replicas.xml, but it presented the certificate of " + (presented == null ? "nobody" : presented);
        tls.refused(response.uri().getAuthority(), problem);
        return problem;
    }

    private String fetchFromGroup() throws CallerFault {
        Duration timeout = group.protocol().clientTimeout();
        Map<String, CompletableFuture<HttpResponse<byte[]>>> asked = new LinkedHashMap<>();
        for (NodeConfig node : group.nodes()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(node.serviceEndpoint() + "?wsdl"))
                    .timeout(timeout).GET().build();
            asked.put(node.name(), http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
        }
        Map<String, Integer> votes = new HashMap<>();
        List<String> account = new ArrayList<>();
        for (Map.Entry<String, CompletableFuture<HttpResponse<byte[]>>> answer : asked.entrySet()) {
            try {
                HttpResponse<byte[]> response = answer.getValue().join();
                String impostor = impostor(answer.getKey(), response);
                if (impostor != null) {
                    account.add(answer.getKey() + ": " + impostor);
                    continue;
                }
                if (response.statusCode() != 200) {
                    account.add(answer.getKey() + ": HTTP " + response.statusCode());
                    continue;
                }
                String document = withAddress(response.body());
                int count = votes.merge(document, 1, Integer::sum);
                account.add(answer.getKey() + ": WSDL of " + response.body().length + " bytes");
                if (count >= group.f() + 1) {
                    return document;
                }
            } catch (java.util.concurrent.CompletionException e) {
                account.add(answer.getKey() + ": " + (e.getCause() == null ? e : e.getCause()));
            } catch (IllegalArgumentException e) {
                account.add(answer.getKey() + ": " + e.getMessage());
            }
        }
        throw new CallerFault(CallerFault.Code.RECEIVER, 503, "bftws gateway: no WSDL of " + group.service()
                + " that " + (group.f() + 1) + " nodes serve identically (their addresses aside): "
                + String.join("; ", account) + " (or give one with --wsdl " + group.service() + "=FILE)");
    }

    /** The document with every port address replaced by the mark, written back as text; not WSDL: IllegalArgument. */
    static String withAddress(byte[] wsdl) {
        Document document = parse(wsdl);
        Element root = document.getDocumentElement();
        if (!"definitions".equals(root.getLocalName())
                || !"http://schemas.xmlsoap.org/wsdl/".equals(root.getNamespaceURI())) {
            throw new IllegalArgumentException("not a WSDL 1.1 document (its root is {" + root.getNamespaceURI()
                    + "}" + root.getLocalName() + ")");
        }
        for (String namespace : ADDRESS_NAMESPACES) {
            NodeList addresses = document.getElementsByTagNameNS(namespace, "address");
            for (int i = 0; i < addresses.getLength(); i++) {
                ((Element) addresses.item(i)).setAttribute("location", ADDRESS_MARK);
            }
        }
        try {
            Transformer out = TransformerFactory.newInstance().newTransformer();
            out.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            StringWriter text = new StringWriter();
            out.transform(new DOMSource(document), new StreamResult(text));
            return text.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException("writing a parsed document cannot fail", e);
        }
    }

    private static Document parse(byte[] wsdl) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // errors throw, nothing printed
            return builder.parse(new ByteArrayInputStream(wsdl));
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException("not well-formed XML: " + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's parser supports these features", e);
        }
    }
}
