package org.bftws.ordering;

import java.util.List;
import org.bftws.core.Reply;

/**
 * Where the {@link TotalOrderManager} sends what clients waiting on this replica must be told: the core's replies,
 * and the sequences it expired (their waiting requests get the expired fault). Called under the manager's lock, so
 * it only hands the work to another thread.
 */
public interface ClientReplies {
    void reply(Reply reply);

    void expired(List<String> sequences);
}
