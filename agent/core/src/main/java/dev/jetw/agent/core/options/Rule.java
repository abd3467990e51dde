package dev.jetw.agent.core.options;

/** An include or annotation selection with the ETW level its START/END events carry and its duration threshold. */
public final class Rule {

    /** For include rules: the pattern; null for annotation rules. */
    public final MethodPattern pattern;
    /** For annotation rules: the annotation's binary name; null for include rules. */
    public final String annotation;
    public final int level;
    /**
     * Calls shorter than this are not written (0: every call); -1 while the rule takes the global threshold, and
     * after {@link #resolved} when none is set at all (every call; adaptive exclusion may give a hot method one).
     */
    public final long thresholdNanos;

    private Rule(MethodPattern pattern, String annotation, int level, long thresholdNanos) {
        this.pattern = pattern;
        this.annotation = annotation;
        this.level = level;
        this.thresholdNanos = thresholdNanos;
    }

    /**
     * The order in which rules claim a method: include rules most specific first (stable, so equal
     * ones keep the order given), then annotation rules in the order given (a class, not a lambda: a lambda on premain's path spins a class at run time, and the first one sets up the JVM's lambda machinery, ~5 ms; BENCHMARKS.md §15).
     */
    public static final java.util.Comparator<Rule> MOST_SPECIFIC_FIRST = new MostSpecificFirst();

    private static final class MostSpecificFirst implements java.util.Comparator<Rule> {
        @Override
        public int compare(Rule a, Rule b) {
            if (a.pattern == null || b.pattern == null) {
                return Boolean.compare(a.pattern == null, b.pattern == null);
            }
            return MethodPattern.compareSpecificity(a.pattern, b.pattern);
        }
    }

    static Rule include(MethodPattern pattern, int level, long thresholdNanos) {
        return new Rule(pattern, null, level, thresholdNanos);
    }

    static Rule annotation(String name, int level, long thresholdNanos) {
        return new Rule(null, name, level, thresholdNanos);
    }

    /** This rule with the global level and threshold filled in where it has none of its own. */
    Rule resolved(int globalLevel, long globalThresholdNanos) {
        return new Rule(pattern, annotation, level < 0 ? globalLevel : level,
                thresholdNanos < 0 ? globalThresholdNanos : thresholdNanos);
    }

    @Override
    public String toString() {
        return (pattern != null ? pattern.toString() : "@" + annotation) + "@" + level
                + (thresholdNanos > 0 ? "@" + Durations.format(thresholdNanos) : "");
    }
}
