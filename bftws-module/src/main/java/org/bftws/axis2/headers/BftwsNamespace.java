package org.bftws.axis2.headers;

/** The namespace of BFT-WS's own SOAP headers and fault details ({@code bftws:ReadOnly}, {@code bftws:Tentative}, the view on replies). */
public final class BftwsNamespace {
    public static final String URI = "urn:bftws:1";

    private BftwsNamespace() {
    }
}
