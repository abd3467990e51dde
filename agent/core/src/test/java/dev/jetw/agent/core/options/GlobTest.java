package dev.jetw.agent.core.options;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GlobTest {

    @Test
    void packageGlobs() {
        MethodPattern all = MethodPattern.parse("include", "com.acme.**");
        assertTrue(all.matchesClass("com.acme.Foo"));
        assertTrue(all.matchesClass("com.acme.deep.er.Bar$Inner"));
        assertFalse(all.matchesClass("com.acmex.Foo"));
        assertFalse(all.matchesClass("org.acme.Foo"));

        MethodPattern one = MethodPattern.parse("include", "com.acme.*");
        assertTrue(one.matchesClass("com.acme.Foo"));
        assertTrue(one.matchesClass("com.acme.Foo$1"));
        assertFalse(one.matchesClass("com.acme.deep.Bar"), "* stays within one package level");

        MethodPattern q = MethodPattern.parse("include", "com.acme.Fo?");
        assertTrue(q.matchesClass("com.acme.Foo"));
        assertFalse(q.matchesClass("com.acme.Fooo"));
    }

    @Test
    void everythingGlobs() {
        assertTrue(MethodPattern.parse("include", "*").matchesClass("a.b.C"));
        assertTrue(MethodPattern.parse("include", "**").matchesClass("C"));
    }

    @Test
    void classAndMethodPatterns() {
        MethodPattern cls = MethodPattern.parse("include", "com.acme.Foo");
        assertTrue(cls.matches("com.acme.Foo", "anything"));
        assertFalse(cls.matches("com.acme.FooBar", "anything"));
        assertTrue(cls.coversWholeClass());

        MethodPattern m = MethodPattern.parse("exclude", "com.acme.util.*#to*");
        assertTrue(m.matches("com.acme.util.Strings", "toString"));
        assertTrue(m.matches("com.acme.util.Strings", "toUpper"));
        assertFalse(m.matches("com.acme.util.Strings", "trim"));
        assertFalse(m.coversWholeClass());
    }

    @Test
    void explicitPrefixTellsWhetherJdkPackagesWereAskedFor() {
        assertTrue(MethodPattern.parse("include", "java.util.**").namesExplicitly("java."));
        assertFalse(MethodPattern.parse("include", "**").namesExplicitly("java."));
        assertFalse(MethodPattern.parse("include", "*.util.**").namesExplicitly("java."));
        assertEquals("java.util.", Glob.forClass("include", "java.util.**").literalPrefix());
    }
}
