package org.bftws.core;

/**
 * How a new-view names one of the 2f+1 view-changes it is built on: its sender and the digest of its whole content
 * ({@link ViewChange#digest()}). A backup takes the view-change itself from what it received directly (every node
 * sends its view-change to all), as in PBFT's MAC variant, instead of receiving it again inside the new-view: the
 * new-view's size and the work to check it then no longer grow with 2f+1 times the slots above the checkpoint.
 */
public record ViewChangeRef(int sender, Digest digest) {

    public static ViewChangeRef of(ViewChange vc) {
        return new ViewChangeRef(vc.sender(), vc.digest());
    }

    public boolean names(ViewChange vc) {
        return vc.sender() == sender && vc.digest().equals(digest);
    }
}
