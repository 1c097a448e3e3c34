package org.bftws.interop.cxf;

import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;

@XmlRootElement(name = "appendResponse", namespace = Append.NS)
@XmlAccessorType(XmlAccessType.FIELD)
public class AppendResponse {
    @XmlElement(namespace = Append.NS)
    public int count;
    @XmlElement(namespace = Append.NS)
    public String digest;
}
