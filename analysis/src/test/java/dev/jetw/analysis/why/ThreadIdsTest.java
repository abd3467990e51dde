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
        ids.threadStart(4242, 5000, 1); // written by OS thread 5000, whose Java id is 1
        ids.threadStart(4242, 6000, 2);
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
        ids.threadStart(8570, 1, 1);
        ids.threadStart(8570, 21, 21);
        assertTrue(ids.headersAreJavaIds());
        assertEquals(-1, ids.kernelThreadId(8570, 21), "not known until a JVM event names its OS id");
        ids.subject(8570, 8601, 21);
        assertEquals(8601, ids.kernelThreadId(8570, 21));
        assertTrue(ids.isSubject(8570, 21, 8601, 21));
        assertFalse(ids.isSubject(8570, 21, 21, 3), "an OS id equal to the Java header id by chance is another thread");
        assertTrue(ids.isSubject(8570, 33, 9000, 33), "a thread without DC_START in a portable file: the Java id decides");
    }

    @Test
    void withoutThreadRundownEitherNumberingMatches() {
        ThreadIds ids = new ThreadIds();
        assertTrue(ids.isSubject(1, 12, 12, 0));
        assertTrue(ids.isSubject(1, 12, 5012, 12));
        assertFalse(ids.isSubject(1, 12, 5012, 13));
    }
}
