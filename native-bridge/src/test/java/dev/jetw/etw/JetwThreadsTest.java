package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JetwThreadsTest {

    @Test
    void aRegisteredThreadIsJetwsAndAnotherIsNot() {
        Thread mine = JetwThreads.register(new Thread(() -> { }, "jetw-x"));
        Thread theirs = new Thread(() -> { }, "jetw-x"); // same name, not registered: identity decides
        assertTrue(JetwThreads.isJetw(mine.getId()));
        assertFalse(JetwThreads.isJetw(theirs.getId()));
    }

    @Test
    void beyondTheCapacityTheOldestRegisteredIsForgotten() {
        Thread first = JetwThreads.register(new Thread(() -> { }));
        Thread[] later = new Thread[JetwThreads.CAPACITY];
        for (int i = 0; i < later.length; i++) {
            later[i] = JetwThreads.register(new Thread(() -> { }));
        }
        assertFalse(JetwThreads.isJetw(first.getId()), "the oldest of CAPACITY + 1 is forgotten");
        assertTrue(JetwThreads.isJetw(later[0].getId()));
        assertTrue(JetwThreads.isJetw(later[later.length - 1].getId()));
    }
}
