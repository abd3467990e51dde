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
    private final Pattern pattern;
    /** The part before the first wildcard: what the glob names explicitly (used to tell "asked for java.*"). */
    private final String literalPrefix;

    private Glob(String text, Pattern pattern, String literalPrefix) {
        this.text = text;
        this.pattern = pattern;
        this.literalPrefix = literalPrefix;
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
            return new Glob(text, Pattern.compile(".*", Pattern.DOTALL), "");
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
                regex.append(Pattern.quote(String.valueOf(c)));
            } else {
                throw new ConfigException(key, text, "'" + c + "' is not allowed in a pattern; allowed: Java names, '.', '$', '*', '**', '?'");
            }
        }
        String prefix = firstWildcard < 0 ? text : text.substring(0, firstWildcard);
        return new Glob(text, Pattern.compile(regex.toString(), Pattern.DOTALL), prefix);
    }

    boolean matches(String name) {
        return pattern.matcher(name).matches();
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
