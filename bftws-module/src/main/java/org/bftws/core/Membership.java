package org.bftws.core;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The nodes of a group and the quorums that follow from f. Node ids are dense: the 3f+1 agreement nodes come first
 * (0..3f), execution-only nodes of Configuration III follow. The primary of view v is agreement node v mod (3f+1).
 */
public record Membership(int f, List<Role> roles) {

    public Membership {
        roles = List.copyOf(roles);
        if (f < 0) {
            throw new IllegalArgumentException("f must not be negative");
        }
        int agreement = (int) roles.stream().filter(Role::orders).count();
        if (agreement != 3 * f + 1) {
            throw new IllegalArgumentException("f=" + f + " needs 3f+1 = " + (3 * f + 1) + " agreement nodes, got " + agreement);
        }
        for (int i = 0; i < agreement; i++) {
            if (!roles.get(i).orders()) {
                throw new IllegalArgumentException("agreement nodes must come first; node " + i + " is " + roles.get(i));
            }
        }
        long executors = roles.stream().filter(Role::executes).count();
        if (executors < 2L * f + 1) {
            throw new IllegalArgumentException("f=" + f + " needs at least 2f+1 = " + (2 * f + 1) + " executing nodes, got " + executors);
        }
    }

    /** Configuration I: 3f+1 nodes that order and execute. */
    public static Membership configurationI(int f) {
        return new Membership(f, java.util.Collections.nCopies(3 * f + 1, Role.AGREE_EXECUTE));
    }

    /** Configuration II: 2f+1 nodes that order and execute, then f that only order. */
    public static Membership configurationII(int f) {
        List<Role> roles = new java.util.ArrayList<>(java.util.Collections.nCopies(2 * f + 1, Role.AGREE_EXECUTE));
        roles.addAll(java.util.Collections.nCopies(f, Role.AGREE));
        return new Membership(f, roles);
    }

    /** Configuration III: 3f+1 agreement nodes, then 2f+1 separate execution nodes. */
    public static Membership configurationIII(int f) {
        List<Role> roles = new java.util.ArrayList<>(java.util.Collections.nCopies(3 * f + 1, Role.AGREE));
        roles.addAll(java.util.Collections.nCopies(2 * f + 1, Role.EXECUTE));
        return new Membership(f, roles);
    }

    public int size() {
        return roles.size();
    }

    public int agreementCount() {
        return 3 * f + 1;
    }

    public Role role(int node) {
        return roles.get(node);
    }

    public boolean isAgreementNode(int node) {
        return node >= 0 && node < agreementCount();
    }

    public boolean isExecutor(int node) {
        return node >= 0 && node < roles.size() && roles.get(node).executes();
    }

    public boolean isNode(int node) {
        return node >= 0 && node < roles.size();
    }

    public int primary(int view) {
        return Math.floorMod(view, agreementCount());
    }

    public List<Integer> executors() {
        return IntStream.range(0, roles.size()).filter(this::isExecutor).boxed().toList();
    }

    /** Execution nodes that do not order (Configuration III): agreement nodes forward committed batches to them. */
    public List<Integer> executionOnlyNodes() {
        return IntStream.range(agreementCount(), roles.size()).boxed().toList();
    }

    public boolean hasExecutionOnlyNodes() {
        return roles.size() > agreementCount();
    }

    /** Prepares from distinct backups that, with the pre-prepare, make a request prepared. */
    public int prepareQuorum() {
        return 2 * f;
    }

    /** Matching commits (own included) that make a prepared request committed; also view-change and new-view. */
    public int quorum() {
        return 2 * f + 1;
    }

    /** Messages from this many distinct nodes include at least one correct node. */
    public int weakQuorum() {
        return f + 1;
    }

    /**
     * Matching checkpoint messages from executors that make a checkpoint stable. With 3f+1 executors (Configuration
     * I) PBFT's 2f+1, so at least f+1 correct replicas hold the state; with 2f+1 executors (II and III) f+1, the most
     * that can be waited for, which still includes one correct executor holding the state (Yin et al.).
     */
    public int checkpointQuorum() {
        return executors().size() >= 3 * f + 1 ? 2 * f + 1 : f + 1;
    }
}
