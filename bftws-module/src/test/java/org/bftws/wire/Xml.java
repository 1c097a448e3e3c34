package org.bftws.wire;

import java.io.StringReader;
import java.io.StringWriter;
import javax.xml.stream.XMLStreamException;
import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.om.OMFactory;
import org.apache.axiom.om.OMXMLBuilderFactory;

/** XML text to AXIOM and back, as the HTTP transport does between two nodes. */
final class Xml {
    static final OMFactory FACTORY = OMAbstractFactory.getOMFactory();

    private Xml() {
    }

    static String text(OMElement e) {
        try {
            StringWriter w = new StringWriter();
            e.serialize(w);
            return w.toString();
        } catch (XMLStreamException ex) {
            throw new IllegalStateException(ex);
        }
    }

    static OMElement parse(String xml) {
        OMElement e = OMXMLBuilderFactory.createOMBuilder(new StringReader(xml)).getDocumentElement();
        e.build();
        return e;
    }
}
