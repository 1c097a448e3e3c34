package org.bftws.axis2.ordering;

import org.apache.axiom.soap.SOAPHeader;

/** Test only: {@link CorruptPrimaryEntryHandler} for every message the client sends, its CreateSequence included. */
public final class CorruptPrimaryEntryEverywhereHandler extends CorruptPrimaryEntryHandler {
    @Override
    boolean applies(SOAPHeader header) {
        return true;
    }
}
