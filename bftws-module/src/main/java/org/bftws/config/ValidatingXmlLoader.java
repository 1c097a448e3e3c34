package org.bftws.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.ValidatorHandler;
import org.xml.sax.Attributes;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.DefaultHandler;
import org.xml.sax.helpers.XMLFilterImpl;

/**
 * Parses an XML file, validates it against an XSD in the same pass and returns its elements with line numbers.
 * Schema errors are collected (not just the first) and each is prefixed with the element being read when it was
 * found, because the parser's own messages often name only a type ("'0' is not facet-valid ... 'positiveInteger'").
 * DTDs and external entities are refused: the file may come from an operator's copy-and-paste.
 */
final class ValidatingXmlLoader {
    private final Schema schema;

    ValidatingXmlLoader(URL xsd) {
        try {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            this.schema = factory.newSchema(xsd);
        } catch (SAXException e) {
            throw new IllegalStateException("the bundled schema " + xsd + " does not load", e);
        }
    }

    /** The validated root element; a {@link ConfigException} listing every schema error otherwise. */
    XmlElement load(Path file) {
        String fileName = file.getFileName().toString();
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(List.of(fileName + ": no such file: " + file.toAbsolutePath()));
        }
        List<String> errors = new ArrayList<>();
        TreeBuilder tree = new TreeBuilder();
        ValidatorHandler validator = schema.newValidatorHandler();
        validator.setContentHandler(tree);
        ElementTracker tracker = new ElementTracker();
        tracker.setContentHandler(validator);
        ErrorHandler collector = new Collector(fileName, tracker, errors);
        validator.setErrorHandler(collector);
        try (InputStream in = Files.newInputStream(file)) {
            XMLReader reader = secureReader();
            tracker.setParent(reader);
            tracker.setErrorHandler(collector);
            InputSource source = new InputSource(in);
            source.setSystemId(file.toUri().toString());
            tracker.parse(source);
        } catch (SAXParseException e) {
            // not well-formed: the parser stops here; report it with what was collected so far
            errors.add(fileName + ":" + e.getLineNumber() + ": not well-formed XML: " + e.getMessage());
        } catch (SAXException e) {
            errors.add(fileName + ": cannot be read: " + e.getMessage());
        } catch (IOException e) {
            throw new ConfigException(fileName + ": cannot be read: " + e.getMessage(), e);
        }
        if (!errors.isEmpty()) {
            throw new ConfigException(errors);
        }
        return tree.root;
    }

    private static XMLReader secureReader() throws SAXException {
        try {
            SAXParserFactory factory = SAXParserFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            return factory.newSAXParser().getXMLReader();
        } catch (ParserConfigurationException e) {
            throw new SAXException(e);
        }
    }

    /** Sits in front of the validator and remembers which element the parser is in. */
    private static final class ElementTracker extends XMLFilterImpl {
        private final Deque<String> open = new ArrayDeque<>();

        @Override
        public void startElement(String uri, String local, String qName, Attributes atts) throws SAXException {
            open.push(XmlElement.describe(local, attributes(atts)));
            super.startElement(uri, local, qName, atts);
        }

        @Override
        public void endElement(String uri, String local, String qName) throws SAXException {
            super.endElement(uri, local, qName);
            open.pop();
        }

        String current() {
            return open.isEmpty() ? "" : open.peek() + " ";
        }
    }

    private record Collector(String fileName, ElementTracker tracker, List<String> errors) implements ErrorHandler {
        @Override
        public void warning(SAXParseException e) {
            // warnings do not make the file invalid
        }

        @Override
        public void error(SAXParseException e) {
            String prefix = fileName + ":" + e.getLineNumber() + ": " + tracker.current();
            String message = plain(e.getMessage());
            // Xerces reports a bad value twice: first the facet ("Value 'x' is not facet-valid ..."), then which
            // attribute or element held it. Merge them into one line that says both.
            int last = errors.size() - 1;
            if (last >= 0 && errors.get(last).startsWith(prefix + "Value '") && !message.startsWith("Value '")) {
                String facet = errors.get(last).substring(prefix.length());
                errors.set(last, prefix + message + " " + facet);
            } else {
                errors.add(prefix + message);
            }
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }

        /** Drops Xerces' rule codes ("cvc-pattern-valid: ") that mean nothing to an operator. */
        private static String plain(String message) {
            return message.replaceFirst("^cvc-[a-zA-Z0-9.\\-]+: ", "");
        }
    }

    /** Builds the element tree from the validated events (the validator adds schema defaults to attributes). */
    private static final class TreeBuilder extends DefaultHandler {
        private final Deque<XmlElement> open = new ArrayDeque<>();
        private Locator locator;
        private XmlElement root;

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String local, String qName, Attributes atts) {
            XmlElement element = new XmlElement(local, attributes(atts), locator == null ? 0 : locator.getLineNumber());
            if (open.isEmpty()) {
                root = element;
            } else {
                open.peek().add(element);
            }
            open.push(element);
        }

        @Override
        public void endElement(String uri, String local, String qName) {
            open.pop();
        }
    }

    private static Map<String, String> attributes(Attributes atts) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < atts.getLength(); i++) {
            map.put(atts.getLocalName(i).isEmpty() ? atts.getQName(i) : atts.getLocalName(i), atts.getValue(i));
        }
        return map;
    }
}
