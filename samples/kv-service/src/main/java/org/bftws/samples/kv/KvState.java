package org.bftws.samples.kv;

import java.math.BigInteger;
import java.util.Map;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The key-value service's state: named accounts, each holding a whole, non-negative balance, and the operations on
 * them. Plain Java with no XML, so the rules of a replicated operation are visible on their own: the result depends
 * only on the state and the request (no clock, no randomness, no threads), and the accounts live in a
 * {@link TreeMap}, so every walk over them (the state {@code get_state} writes, the total) goes in key order, never
 * in hash order.
 *
 * <p>An operation that cannot be carried out throws {@link Refused} and leaves the state as it was: every replica
 * refuses it alike, so the refusal is as much a reply as a result.
 *
 * <p>Not thread-safe: {@link KvService} serialises access.
 */
final class KvState {

    /** Longest key, in UTF-16 characters. */
    static final int MAX_KEY_LENGTH = 200;

    /** An operation refused: the state is unchanged and the reason goes back to the caller as a SOAP fault. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** What a compare-and-set found: whether it swapped, and the value now stored (empty: no such key). */
    record Swap(boolean swapped, OptionalLong current) {
    }

    /** The two balances after a transfer. */
    record Balances(long from, long to) {
    }

    private final TreeMap<String, Long> accounts = new TreeMap<>();

    /** The value of {@code key}, or empty when it has none. */
    OptionalLong get(String key) {
        Long v = accounts.get(key);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** Stores {@code value} under {@code key}; returns the value it replaced, if any. */
    OptionalLong put(String key, long value) throws Refused {
        checkKey(key);
        checkValue("value", value);
        Long previous = accounts.put(key, value);
        return previous == null ? OptionalLong.empty() : OptionalLong.of(previous);
    }

    /**
     * Stores {@code value} under {@code key} only if it now holds {@code expected} (empty {@code expected}: only if
     * the key has no value). A mismatch is an answer, not a refusal: the caller learns the current value.
     */
    Swap compareAndSet(String key, OptionalLong expected, long value) throws Refused {
        checkKey(key);
        checkValue("value", value);
        OptionalLong current = get(key);
        if (!current.equals(expected)) {
            return new Swap(false, current);
        }
        accounts.put(key, value);
        return new Swap(true, OptionalLong.of(value));
    }

    /**
     * Moves {@code amount} from account {@code from} to account {@code to} (created with balance 0 if it has no
     * value). Refused, with nothing moved, when {@code from} has no value or less than {@code amount}.
     */
    Balances transfer(String from, String to, long amount) throws Refused {
        checkKey(from);
        checkKey(to);
        if (amount <= 0) {
            throw new Refused("amount must be positive, not " + amount);
        }
        if (from.equals(to)) {
            throw new Refused("transfer from account '" + from + "' to itself");
        }
        Long balance = accounts.get(from);
        if (balance == null) {
            throw new Refused("no account '" + from + "'");
        }
        if (balance < amount) {
            throw new Refused("insufficient balance: account '" + from + "' holds " + balance + ", the transfer needs "
                    + amount);
        }
        long target = accounts.getOrDefault(to, 0L);
        if (target > Long.MAX_VALUE - amount) {
            throw new Refused("account '" + to + "' would exceed " + Long.MAX_VALUE);
        }
        accounts.put(from, balance - amount);
        accounts.put(to, target + amount);
        return new Balances(balance - amount, target + amount);
    }

    /** The accounts in key order (a read-only view). */
    NavigableMap<String, Long> accounts() {
        return java.util.Collections.unmodifiableNavigableMap(accounts);
    }

    /** The sum of every balance (exact: many large balances may exceed a long). */
    BigInteger total() {
        return total(accounts);
    }

    static BigInteger total(Map<String, Long> accounts) {
        BigInteger sum = BigInteger.ZERO;
        for (long v : accounts.values()) {
            sum = sum.add(BigInteger.valueOf(v));
        }
        return sum;
    }

    /** Replaces every account with {@code replacement}, after checking each key and balance. */
    void replace(Map<String, Long> replacement) throws Refused {
        for (Map.Entry<String, Long> e : replacement.entrySet()) {
            checkKey(e.getKey());
            checkValue("balance of '" + e.getKey() + "'", e.getValue());
        }
        accounts.clear();
        accounts.putAll(replacement);
    }

    /** A key is 1 to {@value #MAX_KEY_LENGTH} characters, no control characters, no surrounding white space. */
    static void checkKey(String key) throws Refused {
        if (key == null || key.isEmpty()) {
            throw new Refused("a key must not be empty");
        }
        if (key.length() > MAX_KEY_LENGTH) {
            throw new Refused("a key has at most " + MAX_KEY_LENGTH + " characters, not " + key.length());
        }
        if (!key.strip().equals(key)) {
            throw new Refused("key '" + key + "' starts or ends with white space");
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                throw new Refused("key '" + key + "' holds a control character at " + i);
            }
        }
    }

    private static void checkValue(String what, long value) throws Refused {
        if (value < 0) {
            throw new Refused(what + " must not be negative, not " + value);
        }
    }
}
