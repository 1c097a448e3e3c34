package org.bftws.ordering;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.bftws.core.DurableRecord;
import org.bftws.core.Request;
import org.bftws.core.RequestIdentity;
import org.bftws.core.ViewChange;

/**
 * What the {@link TotalOrderManager} asks of the rest of the replica, fixed when the replica is built.
 *
 * @param relayedNestedCopyAdmitted multi-tier: whether a nested request another replica relayed (a fetched body) is
 *     the request this replica's gate admitted; such a copy reaches the core as an admitted request, so this backup
 *     may prepare the batch that names it (the core prepares no nested request on another node's word)
 * @param relayedRequestAuthenticated mac profile: whether a client request another replica relayed is authenticated
 *     here (this replica's entry of its authenticator verifies); such a copy reaches the core as a request, the
 *     others only as bodies
 * @param proofSignatures the signatures (from the signature cache) of the messages in a record's proof, for the
 *     journal
 * @param ownViewChanges told of every view-change this node sends (see {@link ReproposalPresigner})
 * @param identity how this replica names a request it holds as bytes (see {@link RequestIdentity}): its codecs decode
 *     relayed requests with it, and the requests its journal gives back are named with it again
 */
public record OrderingHooks(Predicate<Request> relayedNestedCopyAdmitted, Predicate<Request> relayedRequestAuthenticated,
                            Function<DurableRecord, List<byte[]>> proofSignatures,
                            Consumer<ViewChange> ownViewChanges, RequestIdentity identity) {

    /** A replica without nested callers, MAC requests, journal or signing keys. */
    public static OrderingHooks none() {
        return new OrderingHooks(r -> false, r -> false, r -> List.of(), vc -> { }, RequestIdentity.BYTES);
    }
}
