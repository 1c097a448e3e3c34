package org.bftws.samples.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ledger alone, called as its POJO receiver calls it: deterministic state, and set_state as get_state's inverse. */
class LedgerServiceTest {

    @Test
    void theSameDepositsInAnyOrderOfAccountsGiveTheSameStateAndSetStateRestoresItExactly() {
        LedgerService a = new LedgerService();
        LedgerService b = new LedgerService();
        a.deposit("bob", 5);
        a.deposit("alice", 7);
        b.deposit("alice", 7);
        b.deposit("bob", 5);
        assertEquals("alice=7\nbob=5\n", a.get_state());
        assertEquals(a.get_state(), b.get_state());
        LedgerService c = new LedgerService();
        c.deposit("carol", 1); // replaced, not merged
        assertEquals(2, c.set_state(a.get_state()));
        assertEquals(a.get_state(), c.get_state());
        assertEquals(12, c.deposit("alice", 5));
        assertEquals(0, c.balance("carol"));
    }

    @Test
    void badInputIsRefusedWithItsReasonAndAStateItCannotReadChangesNothing() {
        LedgerService l = new LedgerService();
        l.deposit("alice", 3);
        String before = l.get_state();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> l.deposit("alice", 0)).getMessage()
                .contains("at least 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> l.deposit("a=b", 1)).getMessage()
                .contains("no '='"));
        for (String bad : new String[] {"x", "bob=ten", "bob=-1", "bob=1\nbob=2", "=4"}) {
            assertThrows(IllegalArgumentException.class, () -> l.set_state(bad), bad);
            assertEquals(before, l.get_state(), bad);
        }
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> l.deposit("alice", Long.MAX_VALUE)).getMessage().contains("would exceed"));
    }
}
