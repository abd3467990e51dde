package dev.jetw.analysis.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Timeline}: a value as of a moment, the first before any, the last; out-of-order puts and repeats. */
class TimelineTest {

    @Test
    void aValueAsOfAMoment() {
        Timeline<String> t = new Timeline<>();
        t.put(20, "b");
        t.put(10, "a"); // out of order: inserted before
        t.put(30, "b"); // the same as before it: not kept again
        t.put(40, "c");
        assertEquals("a", t.at(5), "before any: the first given");
        assertEquals("a", t.at(10));
        assertEquals("a", t.at(19));
        assertEquals("b", t.at(20));
        assertEquals("b", t.at(39));
        assertEquals("c", t.at(40));
        assertEquals("c", t.at(Long.MAX_VALUE));
        assertEquals("c", t.last());
    }
}
