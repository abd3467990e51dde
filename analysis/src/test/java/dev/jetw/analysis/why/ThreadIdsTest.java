package dev.jetw.analysis.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The three thread numberings of a trace, per backend (docs/etl-tools.md, why). */
class ThreadIdsTest {

    @Test
    void windowsHeadersAreOsIdsAndJvmEventsMatchByTheThreadsJavaId() {
        ThreadIds ids = new ThreadIds();
        ids.threadStart(4242, 5000, 1, -1); // written by OS thread 5000, whose Java id is 1
        ids.threadStart(4242, 6000, 2, -1);
        assertFalse(ids.headersAreJavaIds());
        assertEquals(5000, ids.kernelThreadId(4242, 5000));
        assertTrue(ids.isSubject(4242, 5000, 5000, 1));
        assertFalse(ids.isSubject(4242, 5000, 7000, 5000), "a Java id equal to the OS id by chance is another thread");
        assertTrue(ids.isSubject(4242, 7777, 7777, 0), "no DC_START for the thread, no Java id: the OS id decides");
        assertFalse(ids.isSubject(4242, 7777, 1, 7777));
    }

    @Test
    void portableHeadersAreJavaIdsAndTheKernelIdComesFromAJvmEventsSubject() {
        ThreadIds ids = new ThreadIds();
        ids.threadStart(8570, 1, 1, -1);
        ids.threadStart(8570, 21, 21, -1);
        assertTrue(ids.headersAreJavaIds());
        assertEquals(-1, ids.kernelThreadId(8570, 21), "not known until a JVM event names its OS id");
        ids.subject(8570, 8601, 21);
        assertEquals(8601, ids.kernelThreadId(8570, 21));
        assertTrue(ids.isSubject(8570, 21, 8601, 21));
        assertFalse(ids.isSubject(8570, 21, 21, 3), "an OS id equal to the Java header id by chance is another thread");
        assertTrue(ids.isSubject(8570, 33, 9000, 33), "a thread without DC_START in a portable file: the Java id decides");
    }

    @Test
    void aVersion1RundownGivesEveryWritingThreadItsOsIdAndAVirtualThreadNone() {
        ThreadIds ids = new ThreadIds();
        ids.threadStart(8570, 1, 1, 8571);
        ids.threadStart(8570, 21, 21, 8601);
        ids.threadStart(8570, 40, 40, 0); // a virtual thread
        assertTrue(ids.headersAreJavaIds());
        assertEquals(8571, ids.kernelThreadId(8570, 1), "exact without any JVM event");
        assertEquals(8601, ids.kernelThreadId(8570, 21));
        ids.subject(8570, 9999, 21);
        assertEquals(8601, ids.kernelThreadId(8570, 21), "the thread's own reading wins over a JVM event's");
        ids.subject(8570, 8700, 40); // JFR names the carrier the virtual thread ran on then
        assertEquals(-1, ids.kernelThreadId(8570, 40), "a carrier's kernel states are not the virtual thread's");
        assertTrue(ids.hasNoOsThread(8570, 40));
        assertFalse(ids.hasNoOsThread(8570, 21));
        assertEquals(-1, ids.kernelThreadId(8571, 1), "per process");
    }

    @Test
    void withoutThreadRundownEitherNumberingMatches() {
        ThreadIds ids = new ThreadIds();
        assertTrue(ids.isSubject(1, 12, 12, 0));
        assertTrue(ids.isSubject(1, 12, 5012, 12));
        assertFalse(ids.isSubject(1, 12, 5012, 13));
    }
}
