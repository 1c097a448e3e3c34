package org.bftws.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The client-side Voter (paper 3.3.1.5) and its reply policies. */
class VoterTest {

    private static final RequestId ID = new RequestId("c", 1);
    private static final Set<Integer> FOUR = Set.of(0, 1, 2, 3);

    private static Reply reply(int from, String result) {
        return new Reply(ID, 0, result.getBytes(), from);
    }

    private static Reply tentative(int from, int view, String result) {
        return new Reply(ID, view, result.getBytes(), from, true);
    }

    @Test
    void tentativeRepliesAreAcceptedFromTwoFPlusOneExecutorsOfOneView() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        assertEquals(Voter.State.PENDING, v.add(tentative(0, 2, "ok")).state());
        assertEquals(Voter.State.PENDING, v.add(tentative(1, 2, "ok")).state(), "f+1 tentative replies are not enough");
        Voter.Outcome o = v.add(tentative(2, 2, "ok"));
        assertEquals(Voter.State.ACCEPTED, o.state());
        assertEquals(2, o.view());
    }

    @Test
    void tentativeRepliesOfDifferentViewsDoNotMakeAQuorumUntilCommittedAnswersReplaceThem() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(tentative(0, 1, "ok"));
        v.add(tentative(1, 2, "ok"));
        assertEquals(Voter.State.PENDING, v.add(tentative(2, 1, "ok")).state());
        assertEquals(Voter.State.PENDING, v.add(tentative(3, 2, "ok")).state(),
                "every executor answered and no rule holds, but their committed answers may still come");
        assertEquals(Voter.State.ACCEPTED, v.add(reply(0, "ok")).state(),
                "node 0's committed answer and the two tentative ones of view 2 make 2f+1");
    }

    @Test
    void aTentativeResultThatTheCommitOverturnsIsNotAccepted() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(tentative(0, 1, "rolled back"));
        v.add(tentative(1, 1, "rolled back"));
        v.add(reply(0, "committed"));
        assertEquals(Voter.State.PENDING, v.add(tentative(2, 1, "rolled back")).state(),
                "node 0's committed answer replaced its tentative one: two tentative are no quorum");
        assertEquals(Voter.State.ACCEPTED, v.add(reply(1, "committed")).state());
        assertArrayEquals("committed".getBytes(), v.outcome().result());
    }

    @Test
    void committedRepliesCountTowardsATentativeQuorumAndFPlusOneCommittedSuffice() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(tentative(0, 3, "ok"));
        v.add(reply(1, "ok"));
        assertEquals(Voter.State.ACCEPTED, v.add(tentative(2, 3, "ok")).state());
        Voter w = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        w.add(tentative(0, 3, "ok"));
        w.add(reply(1, "ok"));
        assertEquals(Voter.State.ACCEPTED, w.add(reply(2, "ok")).state());
    }

    @Test
    void aResultIsAcceptedOnceFPlusOneDistinctReplicasReturnedIt() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        assertEquals(Voter.State.PENDING, v.add(reply(0, "ok")).state());
        assertEquals(Voter.State.PENDING, v.add(reply(1, "bad")).state());
        Voter.Outcome o = v.add(reply(2, "ok"));
        assertEquals(Voter.State.ACCEPTED, o.state());
        assertArrayEquals("ok".getBytes(), o.result());
    }

    @Test
    void aReplicaThatAnswersTwiceIsCountedOnce() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(reply(3, "forged"));
        assertEquals(Voter.State.PENDING, v.add(reply(3, "forged")).state());
        assertEquals(1, v.repliesReceived());
    }

    @Test
    void aReplicasLaterAnswerReplacesItsEarlierOne() {
        // 0 told the executed result before the sequence expired and "expired" when asked again after; 1 lags
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(reply(0, "result"));
        v.add(reply(0, "expired"));
        assertEquals(Voter.State.PENDING, v.add(reply(1, "result")).state(), "0's first answer no longer counts");
        assertEquals(Voter.State.PENDING, v.add(reply(0, "expired")).state(), "nor does a repeated one count twice");
        Voter.Outcome o = v.add(reply(2, "expired"));
        assertEquals(Voter.State.ACCEPTED, o.state());
        assertArrayEquals("expired".getBytes(), o.result());
    }

    @Test
    void aFaultyReplicaSwitchingAnswersNeverHasMoreThanOneVote() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(reply(3, "forged"));
        v.add(reply(3, "other"));
        v.add(reply(3, "forged"));
        assertEquals(Voter.State.PENDING, v.add(reply(3, "other")).state());
        assertEquals(Voter.State.ACCEPTED, v.add(reply(1, "other")).state());
    }

    @Test
    void repliesFromNodesThatAreNotExecutorsOrForAnotherRequestDoNotCount() {
        Voter v = new Voter(ID, 1, Set.of(0, 1, 2), ReplyPolicy.WEAK_QUORUM);
        v.add(reply(3, "x"));
        v.add(new Reply(new RequestId("c", 2), 0, "x".getBytes(), 1));
        assertEquals(Voter.State.PENDING, v.add(reply(0, "x")).state());
    }

    @Test
    void eachPolicyWaitsForItsOwnNumberOfIdenticalReplies() {
        assertEquals(1, ReplyPolicy.FIRST.threshold(1, 4));
        assertEquals(2, ReplyPolicy.WEAK_QUORUM.threshold(1, 4));
        assertEquals(3, ReplyPolicy.STRONG_QUORUM.threshold(1, 4));
        assertEquals(4, ReplyPolicy.ALL.threshold(1, 4));
        Voter strong = new Voter(ID, 1, FOUR, ReplyPolicy.STRONG_QUORUM);
        strong.add(reply(0, "r"));
        strong.add(reply(1, "r"));
        assertEquals(Voter.State.ACCEPTED, strong.add(reply(2, "r")).state());
    }

    @Test
    void theOutcomeIsInconclusiveWhenNoResultCanStillReachTheThreshold() {
        Voter all = new Voter(ID, 1, FOUR, ReplyPolicy.ALL);
        all.add(reply(0, "a"));
        assertEquals(Voter.State.INCONCLUSIVE, all.add(reply(1, "b")).state());
    }

    @Test
    void theAcceptedViewIsOneThatACorrectReplicaVouchesFor() {
        Voter v = new Voter(ID, 1, FOUR, ReplyPolicy.WEAK_QUORUM);
        v.add(new Reply(ID, 99, "ok".getBytes(), 3));
        assertEquals(2, v.add(new Reply(ID, 2, "ok".getBytes(), 1)).view());
    }
}
