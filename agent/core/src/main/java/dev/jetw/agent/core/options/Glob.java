package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;

import java.util.regex.Pattern;

/**
 * A class or method name glob. In a class glob {@code *} stays within one package level and
 * {@code **} crosses dots ({@code com.acme.**} = com.acme and every sub-package); a glob that is
 * only {@code *} or {@code **} matches everything. In a method glob {@code *} matches any run of
 * characters. {@code ?} matches one character that is not a dot.
 */
final class Glob {

    private final String text;
    /** The regex of a glob the char tests below cannot decide alone, or null. */
    private final String regex;
    /** Compiled at the first name it must decide (see {@link #matches}). */
    private volatile Pattern pattern;
    /** The part before the first wildcard: what the glob names explicitly (used to tell "asked for java.*"). */
    private final String literalPrefix;
    /** The glob is its literal prefix and then anything ({@code com.acme.**}, a method glob's {@code get*}, {@code **}). */
    private final boolean prefixThenAnything;

    private Glob(String text, String regex, String literalPrefix, boolean prefixThenAnything) {
        this.text = text;
        this.regex = regex;
        this.literalPrefix = literalPrefix;
        this.prefixThenAnything = prefixThenAnything;
    }

    static Glob forClass(String key, String text) {
        return compile(key, text, true);
    }

    static Glob forMethod(String key, String text) {
        return compile(key, text, false);
    }

    private static Glob compile(String key, String text, boolean classGlob) {
        if (text.isEmpty()) {
            throw new ConfigException(key, text, "an empty pattern; allowed: a package (com.acme.**), a class (com.acme.Foo) or a method (com.acme.Foo#bar)");
        }
        if (text.equals("*") || text.equals("**")) {
            return new Glob(text, null, "", true);
        }
        StringBuilder regex = new StringBuilder();
        int firstWildcard = -1;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*') {
                if (firstWildcard < 0) {
                    firstWildcard = i;
                }
                boolean dbl = i + 1 < text.length() && text.charAt(i + 1) == '*';
                if (dbl) {
                    i++;
                }
                regex.append(dbl || !classGlob ? ".*" : "[^.]*");
            } else if (c == '?') {
                if (firstWildcard < 0) {
                    firstWildcard = i;
                }
                regex.append("[^.]");
            } else if (Character.isJavaIdentifierPart(c) || c == '.' || c == '$' || c == '<' || c == '>') {
                regex.append("\\Q").append(c).append("\\E");
            } else {
                throw new ConfigException(key, text, "'" + c + "' is not allowed in a pattern; allowed: Java names, '.', '$', '*', '**', '?'");
            }
        }
        String prefix = firstWildcard < 0 ? text : text.substring(0, firstWildcard);
        String rest = text.substring(prefix.length());
        boolean anything = rest.equals("**") || (!classGlob && rest.equals("*"));
        return new Glob(text, firstWildcard < 0 || anything ? null : regex.toString(), prefix, anything);
    }

    /**
     * Whether {@code name} matches. Char tests decide a literal glob, a name without the literal prefix, and a glob
     * that is its prefix and then anything ({@code com.acme.**}); only other globs need their regex. The name test
     * runs for every class the JVM loads, from premain on, where a first regex costs ~10 ms (BENCHMARKS.md §15).
     */
    boolean matches(String name) {
        if (!name.startsWith(literalPrefix)) {
            return false;
        }
        if (prefixThenAnything) {
            return true;
        }
        if (regex == null) {
            return name.length() == literalPrefix.length();
        }
        Pattern p = pattern;
        if (p == null) {
            p = Pattern.compile(regex, Pattern.DOTALL);
            pattern = p;
        }
        return p.matcher(name).matches();
    }

    /** Whether the regex was compiled (tests: the usual globs never need it). */
    boolean compiledRegex() {
        return pattern != null;
    }

    /** True when the glob has no wildcard: it names exactly one class or method. */
    boolean isLiteral() {
        return literalPrefix.equals(text);
    }

    /** The text before the first wildcard, e.g. "java.util." for "java.util.**". */
    String literalPrefix() {
        return literalPrefix;
    }

    @Override
    public String toString() {
        return text;
    }
}
