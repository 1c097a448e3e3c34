package org.bftws.soap;

/** A message that is not a SOAP envelope {@link SoapHeader} can read, with what is wrong with it. */
public final class MalformedSoap extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedSoap(String problem) {
        super(problem);
    }
}
