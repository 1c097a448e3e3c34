package org.bftws.server.gateway;

import org.apache.axiom.om.OMAbstractFactory;
import org.apache.axiom.soap.SOAPFactory;

/** SOAP 1.1 or 1.2: the envelope namespace, the HTTP Content-Type, and the AXIOM factory of each. */
enum SoapVersion {
    SOAP11("http://schemas.xmlsoap.org/soap/envelope/", "text/xml"),
    SOAP12("http://www.w3.org/2003/05/soap-envelope", "application/soap+xml");

    final String namespace;
    final String mediaType;

    SoapVersion(String namespace, String mediaType) {
        this.namespace = namespace;
        this.mediaType = mediaType;
    }

    SOAPFactory factory() {
        return this == SOAP11 ? OMAbstractFactory.getSOAP11Factory() : OMAbstractFactory.getSOAP12Factory();
    }

    String contentType() {
        return mediaType + "; charset=UTF-8";
    }

    /** The version a Content-Type announces: application/soap+xml is SOAP 1.2, anything else is taken as 1.1. */
    static SoapVersion ofContentType(String contentType) {
        return contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).contains("application/soap+xml")
                ? SOAP12 : SOAP11;
    }

    static SoapVersion ofNamespace(String namespace) {
        for (SoapVersion v : values()) {
            if (v.namespace.equals(namespace)) {
                return v;
            }
        }
        return null;
    }
}
