package org.bftws.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Axis2 repository of one node: {@code axis2.xml} (conf/axis2.xml, which engages addressing and bftws; for a node
 * in a servlet container with AxisServlet's listener as its http transport receiver),
 * {@code modules/addressing.mar} and the service archives in {@code services/} (the .aar files of a directory, or
 * a launcher's sample service). A client's repository is the same without services.
 *
 * <p>No {@code modules/bftws.mar}: the launcher's classpath already holds the bftws jar, and Axis2 1.8.2 deploys
 * every classpath entry with a META-INF/module.xml as a module too, under its file name. A second copy in modules/
 * became a second module ("bftws" next to "bftws-0.1.0-SNAPSHOT"), both initialised, each creating its own node
 * state and threads. A deployment whose classpath lacks the bftws jar puts bftws.mar in modules/ instead.
 */
public final class NodeRepository {

    private static final String RESOURCES = "/org/bftws/server/";
    private static final Pattern HTTP_RECEIVER =
            Pattern.compile("<transportReceiver name=\"http\"[^>]*>.*?</transportReceiver>", Pattern.DOTALL);

    private NodeRepository() {
    }

    /**
     * Writes a node's repository into {@code dir}, with the .aar archives of {@code services}, for a node served by
     * {@code container} on {@code port}.
     */
    static Path forNode(Path dir, Path services, NodeContainer container, int port) throws IOException {
        copyArchives(services, forNode(dir, container, port).resolve("services"));
        return dir;
    }

    /** Writes a node's repository into {@code dir}, with the archives {@code sample} writes. */
    static Path forNode(Path dir, SampleService sample, NodeContainer container, int port) throws IOException {
        sample.writeArchives(forNode(dir, container, port).resolve("services"));
        return dir;
    }

    /** Writes a node's repository into {@code dir} with an empty {@code services/}, the archives to be added. */
    static Path forNode(Path dir, NodeContainer container, int port) throws IOException {
        writeCommon(dir);
        writeNodeAxis2Xml(dir, container, port);
        Files.createDirectories(dir.resolve("services"));
        return dir;
    }

    /**
     * Makes the repository's axis2.xml name {@code service} as the one its node serves (the bftws setting
     * 'service'): an agreement node of an {@code <agreementGroup>} runs one Axis2 node per service in one JVM, all
     * under the one party name, so the service cannot come from a system property.
     */
    static void serving(Path repository, String service) throws IOException {
        String xml = Files.readString(axis2Xml(repository));
        String engage = "<module ref=\"bftws\"/>";
        if (!xml.contains(engage)) {
            throw new IOException("the bundled axis2.xml does not engage the bftws module; rebuild bftws-server");
        }
        Files.writeString(axis2Xml(repository), xml.replace(engage, engage + "\n    <moduleConfig name=\"bftws\">"
                + "<parameter name=\"service\">" + service + "</parameter></moduleConfig>"));
    }

    /** Writes a client's repository (modules and axis2.xml, no services) into {@code dir}. */
    public static Path forClient(Path dir) throws IOException {
        writeCommon(dir);
        Files.createDirectories(dir.resolve("services"));
        return dir;
    }

    public static Path axis2Xml(Path repository) {
        return repository.resolve("axis2.xml");
    }

    private static void writeCommon(Path dir) throws IOException {
        Path modules = Files.createDirectories(dir.resolve("modules"));
        copyResource("modules/addressing.mar", modules.resolve("addressing.mar"));
        copyResource("axis2.xml", axis2Xml(dir));
    }

    /**
     * conf/axis2.xml with the http (and https) transport receiver of {@code container}: in a servlet container
     * AxisServlet's listener, told the port so that Axis2's addresses (the WSDL's endpoint) name it before the first request.
     */
    private static void writeNodeAxis2Xml(Path dir, NodeContainer container, int port) throws IOException {
        if (container == NodeContainer.SIMPLE) {
            return; // writeCommon wrote conf/axis2.xml as it is
        }
        String xml = Files.readString(axis2Xml(dir));
        Matcher receiver = HTTP_RECEIVER.matcher(xml);
        if (!receiver.find()) {
            throw new IOException("the bundled axis2.xml has no <transportReceiver name=\"http\">; rebuild bftws-server");
        }
        Files.writeString(axis2Xml(dir), xml.substring(0, receiver.start())
                + "<transportReceiver name=\"http\" class=\"" + container.receiver() + "\">\n"
                + "        <parameter name=\"port\">" + port + "</parameter>\n"
                + "    </transportReceiver>\n"
                // AxisServlet serves a scheme only with a listener of that name: https when replicas.xml has <tls>
                + "    <transportReceiver name=\"https\" class=\"" + container.receiver() + "\">\n"
                + "        <parameter name=\"port\">" + port + "</parameter>\n"
                + "    </transportReceiver>" + xml.substring(receiver.end()));
    }

    private static void copyArchives(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            throw new IOException("--services " + from.toAbsolutePath() + " is not a directory");
        }
        int copied = 0;
        try (DirectoryStream<Path> aars = Files.newDirectoryStream(from, "*.aar")) {
            for (Path aar : aars) {
                Files.copy(aar, to.resolve(aar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                copied++;
            }
        }
        if (copied == 0) {
            throw new IOException("--services " + from.toAbsolutePath() + " holds no .aar service archive");
        }
    }

    private static void copyResource(String name, Path target) throws IOException {
        try (InputStream in = NodeRepository.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IOException("resource " + RESOURCES + name + " is missing from the classpath;"
                        + " rebuild bftws-server (mvn -B package)");
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
