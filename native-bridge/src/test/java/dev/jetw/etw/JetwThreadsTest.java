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
        assertTrue(JetwThreads.isJetwOsThread(registered.get(), System.nanoTime()));
        assertFalse(JetwThreads.isJetwOsThread(self, System.nanoTime()), "this thread did not register");
    }

    /**
     * A registered thread that ended: its calls up to its end stay jetw's (decoded later by the poller), while the
     * calls of an application thread the kernel gives the same id later are the application's.
     */
    @Test
    void anEndedThreadsIdIsJetwsOnlyUntilItsEnd() throws Exception {
        Assumptions.assumeTrue(OsThreadId.current() > 0, "no /proc/thread-self here (not Linux): there is no OS id to register");
        AtomicInteger tid = new AtomicInteger();
        long[] times = new long[2];
        Thread t = new Thread(() -> {
            JetwThreads.registerCurrentOsThread();
            tid.set(OsThreadId.current());
            times[0] = System.nanoTime();
            JetwThreads.unregisterCurrentOsThread();
            times[1] = System.nanoTime();
        });
        t.start();
        t.join();
        assertTrue(JetwThreads.isJetwOsThread(tid.get(), times[0]), "a call while it ran");
        assertFalse(JetwThreads.isJetwOsThread(tid.get(), times[1]), "a call after its end: the id may be another thread's now");
    }

    /** Ended ids are kept to a bound, the earliest end forgotten first; a running thread's id never is. */
    @Test
    void endedIdsAreBoundedAndRunningOnesKept() throws Exception {
        Assumptions.assumeTrue(OsThreadId.current() > 0, "no /proc/thread-self here (not Linux): there is no OS id to register");
        java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        Thread live = new Thread(() -> {
            JetwThreads.registerCurrentOsThread();
            running.set(OsThreadId.current());
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        live.start();
        long before = System.nanoTime();
        int first = 0;
        java.util.Set<Integer> later = new java.util.HashSet<>();
        for (int i = 0; i <= JetwThreads.ENDED_OS_IDS; i++) {
            AtomicInteger id = new AtomicInteger();
            Thread t = new Thread(() -> {
                JetwThreads.registerCurrentOsThread();
                id.set(OsThreadId.current());
                JetwThreads.unregisterCurrentOsThread();
            });
            t.start();
            t.join();
            if (i == 0) {
                first = id.get();
            } else {
                later.add(id.get());
            }
        }
        while (running.get() == 0) {
            Thread.sleep(1);
        }
        assertTrue(JetwThreads.isJetwOsThread(running.get(), System.nanoTime()), "still running: kept");
        end.countDown();
        live.join();
        Assumptions.assumeFalse(later.contains(first), "the kernel gave the first thread's id to a later one: nothing to tell apart");
        assertFalse(JetwThreads.isJetwOsThread(first, before), "the earliest of ENDED_OS_IDS + 1 ended ids is forgotten");
    }
}
