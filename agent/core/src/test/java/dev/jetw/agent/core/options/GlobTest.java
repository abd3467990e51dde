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

    /**
     * The char tests (prefix, literal, prefix-then-anything) decide exactly as the glob's regex does, over globs of
     * every shape and names around their edges; and the usual globs never compile a regex (premain's name test).
     */
    @Test
    void theCharTestsAgreeWithTheRegexAndTheUsualGlobsNeedNone() {
        String[] globs = {"com.acme.**", "com.acme.*", "com.acme.Foo", "com.acme.Fo?", "*.util.**", "com.**.Bar", "**", "*",
            "com.acme.Foo$*", "com.acme", "a.*.c.**"};
        String[] names = {"com.acme.Foo", "com.acme.Foo$1", "com.acme.deep.Bar", "com.acme", "com.acme.", "com.acmex.Foo",
            "org.acme.Foo", "java.util.List", "com.x.Bar", "com.x.y.Bar", "C", "", "a.b.c.D", "a.b.c", "com.acme.Fooo"};
        for (String g : globs) {
            for (boolean classGlob : new boolean[] {true, false}) {
                Glob glob = classGlob ? Glob.forClass("include", g) : Glob.forMethod("include", g);
                java.util.regex.Pattern reference = java.util.regex.Pattern.compile(referenceRegex(g, classGlob), java.util.regex.Pattern.DOTALL);
                for (String n : names) {
                    assertEquals(reference.matcher(n).matches(), glob.matches(n), (classGlob ? "class" : "method") + " glob " + g + " on " + n);
                }
            }
        }
        for (String g : new String[] {"com.acme.**", "com.acme.Foo", "**", "*"}) {
            Glob glob = Glob.forClass("include", g);
            for (String n : names) {
                glob.matches(n);
            }
            assertFalse(glob.compiledRegex(), g + " needed no regex");
        }
        Glob one = Glob.forClass("include", "com.acme.*");
        assertFalse(one.compiledRegex(), "not before a name past its prefix");
        one.matches("org.x.Y");
        assertFalse(one.compiledRegex(), "a name without the prefix is decided by the prefix");
        one.matches("com.acme.Foo");
        assertTrue(one.compiledRegex());
    }

    /** The regex the globs were matched with before the char tests (55bed4f's Glob.compile). */
    private static String referenceRegex(String text, boolean classGlob) {
        if (text.equals("*") || text.equals("**")) {
            return ".*";
        }
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*') {
                boolean dbl = i + 1 < text.length() && text.charAt(i + 1) == '*';
                if (dbl) {
                    i++;
                }
                regex.append(dbl || !classGlob ? ".*" : "[^.]*");
            } else if (c == '?') {
                regex.append("[^.]");
            } else {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(c)));
            }
        }
        return regex.toString();
    }
}
