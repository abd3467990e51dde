package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;

/**
 * One include or exclude pattern: {@code classGlob[#methodGlob]}, e.g. {@code com.acme.**},
 * {@code com.acme.Foo}, {@code com.acme.util.*#toString}. Without {@code #} every method of the
 * matched classes is meant.
 */
public final class MethodPattern {

    private final String text;
    private final Glob classGlob;
    private final Glob methodGlob;

    private MethodPattern(String text, Glob classGlob, Glob methodGlob) {
        this.text = text;
        this.classGlob = classGlob;
        this.methodGlob = methodGlob;
    }

    static MethodPattern parse(String key, String text) {
        int hash = text.indexOf('#');
        if (hash != text.lastIndexOf('#')) {
            throw new ConfigException(key, text, "at most one '#' (class#method) is allowed");
        }
        String cls = hash < 0 ? text : text.substring(0, hash);
        Glob methods = hash < 0 ? null : Glob.forMethod(key, text.substring(hash + 1));
        return new MethodPattern(text, Glob.forClass(key, cls), methods);
    }

    public boolean matchesClass(String className) {
        return classGlob.matches(className);
    }

    public boolean matches(String className, String methodName) {
        return classGlob.matches(className) && (methodGlob == null || methodGlob.matches(methodName));
    }

    /** True when the pattern names {@code className}'s package explicitly (no wildcard before it). */
    public boolean namesExplicitly(String packagePrefix) {
        return classGlob.literalPrefix().startsWith(packagePrefix);
    }

    /**
     * True for a pattern that takes every method of the classes a wildcard matches ({@code org.h2.**},
     * {@code com.acme.*Dao}): the whole-library includes where trivial methods are left out (option trivial=).
     */
    public boolean takesWholeClassesByWildcard() {
        return methodGlob == null && !classGlob.isLiteral();
    }

    /** True when every method of a matched class is meant (an exclude then removes the whole class). */
    public boolean coversWholeClass() {
        return methodGlob == null;
    }

    /**
     * How narrowly the pattern selects, for ordering rules most specific first: a method glob
     * outranks none, then a longer literal class prefix, then a longer literal method prefix.
     */
    static int compareSpecificity(MethodPattern a, MethodPattern b) {
        int c = Boolean.compare(b.methodGlob != null, a.methodGlob != null);
        if (c == 0) {
            c = Integer.compare(b.classGlob.literalPrefix().length(), a.classGlob.literalPrefix().length());
        }
        if (c == 0) {
            c = Integer.compare(b.methodGlob == null ? 0 : b.methodGlob.literalPrefix().length(),
                    a.methodGlob == null ? 0 : a.methodGlob.literalPrefix().length());
        }
        return c;
    }

    @Override
    public String toString() {
        return text;
    }
}
