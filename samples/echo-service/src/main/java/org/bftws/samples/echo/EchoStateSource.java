package org.bftws.samples.echo;

import java.util.List;

import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

import org.apache.axiom.om.ds.AbstractPushOMDataSource;

/**
 * The echo state's {@code e:state} element as a streaming data source: AXIOM asks it to write itself when the reply
 * is serialised, so no tree of the state's (possibly hundreds of thousands of) elements is ever built. This is how a
 * service with a large state should answer {@code get_state}: the replica serialises the response element once,
 * straight into the bytes it digests and checkpoints.
 *
 * <p>It writes a snapshot taken when {@code get_state} ran (the log is copied), so a later append cannot change what
 * a pending reply writes; writing is repeatable. Names and text are fixed strings or the appended values, so equal
 * states give equal bytes on every replica.
 */
final class EchoStateSource extends AbstractPushOMDataSource {

    private final int count;
    private final String digest;
    private final List<String> entries;
    private final int pads;

    EchoStateSource(EchoState state) {
        this.count = state.count();
        this.digest = state.digestHex();
        this.entries = state.log();
        this.pads = state.padElements();
    }

    @Override
    public boolean isDestructiveWrite() {
        return false;
    }

    @Override
    public void serialize(XMLStreamWriter w) throws XMLStreamException {
        w.writeStartElement(EchoService.PREFIX, "state", EchoService.NS);
        w.writeNamespace(EchoService.PREFIX, EchoService.NS);
        w.writeAttribute("count", Integer.toString(count));
        w.writeAttribute("digest", digest);
        for (String entry : entries) {
            w.writeStartElement(EchoService.PREFIX, "entry", EchoService.NS);
            w.writeCharacters(entry);
            w.writeEndElement();
        }
        for (int i = 0; i < pads; i++) {
            w.writeStartElement(EchoService.PREFIX, "pad", EchoService.NS);
            w.writeCharacters(EchoState.PAD_TEXT);
            w.writeEndElement();
        }
        w.writeEndElement();
    }
}
