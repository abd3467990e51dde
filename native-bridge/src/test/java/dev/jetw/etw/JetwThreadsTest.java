package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
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

    /** The kernel collector leaves out the system calls of jetw threads that registered their OS id, and only theirs. */
    @Test
    void aThreadThatRegistersItsOsIdIsJetwsByThatIdAndAnotherIsNot() throws Exception {
        int self = OsThreadId.current();
        Assumptions.assumeTrue(self > 0, "no /proc/thread-self here (not Linux): there is no OS id to register");
        AtomicInteger registered = new AtomicInteger();
        Thread t = new Thread(() -> {
            JetwThreads.registerCurrentOsThread();
            registered.set(OsThreadId.current());
        });
        t.start();
        t.join();
        assertTrue(registered.get() > 0);
        assertTrue(JetwThreads.isJetwOsThread(registered.get()));
        assertFalse(JetwThreads.isJetwOsThread(self), "this thread did not register");
    }
}
