package org.bftws.interop.cxf;

import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;

@XmlRootElement(name = "append", namespace = Append.NS)
@XmlAccessorType(XmlAccessType.FIELD)
public class Append {
    public static final String NS = "http://bftws.org/samples/echo";

    @XmlElement(namespace = NS, required = true)
    public String value;

    public Append() {
    }

    public Append(String value) {
        this.value = value;
    }
}
