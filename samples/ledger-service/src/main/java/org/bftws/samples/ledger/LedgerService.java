package org.bftws.samples.ledger;

import java.util.Map;
import java.util.TreeMap;

/**
 * A small ledger as a plain Java class, deployed as an Axis2 POJO service (services.xml names it with
 * {@code RPCMessageReceiver}; Axis2 generates the schema). Accounts are named, balances are whole numbers; a deposit
 * adds to an account (opening it), {@code balance} reads one.
 *
 * <p>Replicated with BFT-WS it needs what every replicated service needs: it is deterministic (a {@link TreeMap}, no
 * clock, no randomness), and it has {@code get_state} and {@code set_state}. The state is a {@code String}: one line
 * per account, {@code name=balance}, in name order, so equal ledgers give equal strings on every replica.
 * {@code set_state} takes that string back and replaces the whole ledger, or refuses it, changing nothing.
 */
public class LedgerService {

    private final TreeMap<String, Long> accounts = new TreeMap<>();

    /** Adds {@code amount} (at least 1) to {@code account}, opening it at 0 first; returns its new balance. */
    public synchronized long deposit(String account, long amount) {
        checkName(account);
        if (amount < 1) {
            throw new IllegalArgumentException("a deposit must be at least 1, not " + amount);
        }
        long now = accounts.getOrDefault(account, 0L);
        if (now > Long.MAX_VALUE - amount) {
            throw new IllegalArgumentException("account '" + account + "' holds " + now + "; a deposit of " + amount
                    + " would exceed " + Long.MAX_VALUE);
        }
        accounts.put(account, now + amount);
        return now + amount;
    }

    /** The balance of {@code account}; 0 for an account nobody deposited to. */
    public synchronized long balance(String account) {
        checkName(account);
        return accounts.getOrDefault(account, 0L);
    }

    /** The whole ledger: {@code name=balance} lines in name order (empty for an empty ledger). */
    public synchronized String get_state() {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Long> e : accounts.entrySet()) {
            s.append(e.getKey()).append('=').append(e.getValue()).append('\n');
        }
        return s.toString();
    }

    /**
     * Replaces the ledger with {@code state} as {@link #get_state} wrote it; returns the number of accounts. Refuses a
     * state it cannot read (a line without '=', a bad name or balance, a repeated account), changing nothing.
     */
    public synchronized int set_state(String state) {
        TreeMap<String, Long> read = new TreeMap<>();
        String text = state == null ? "" : state;
        int line = 0;
        for (String l : text.split("\n", -1)) {
            line++;
            if (l.isEmpty()) {
                continue;
            }
            int eq = l.lastIndexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("state line " + line + " is not name=balance: '" + l + "'");
            }
            String name = l.substring(0, eq);
            checkName(name);
            long balance;
            try {
                balance = Long.parseLong(l.substring(eq + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("state line " + line + ": the balance of '" + name
                        + "' is not a whole number");
            }
            if (balance < 0) {
                throw new IllegalArgumentException("state line " + line + ": '" + name + "' holds " + balance);
            }
            if (read.put(name, balance) != null) {
                throw new IllegalArgumentException("state line " + line + ": account '" + name + "' appears twice");
            }
        }
        accounts.clear();
        accounts.putAll(read);
        return accounts.size();
    }

    private static void checkName(String account) {
        if (account == null || account.isEmpty()) {
            throw new IllegalArgumentException("an account needs a name");
        }
        for (int i = 0; i < account.length(); i++) {
            char c = account.charAt(i);
            if (c == '=' || c == '\n' || c == '\r' || Character.isISOControl(c)) {
                throw new IllegalArgumentException("account names hold no '=', line breaks or control characters: '"
                        + account.replace("\n", "\\n") + "'");
            }
        }
    }
}
