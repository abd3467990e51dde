package dev.jetw.agent.core;

/** An include or annotation selection with the ETW level its START/END events carry. */
final class Rule {

    /** For include rules: the pattern; null for annotation rules. */
    final MethodPattern pattern;
    /** For annotation rules: the annotation's binary name; null for include rules. */
    final String annotation;
    final int level;

    private Rule(MethodPattern pattern, String annotation, int level) {
        this.pattern = pattern;
        this.annotation = annotation;
        this.level = level;
    }

    /**
     * The order in which rules claim a method: include rules most specific first (stable, so equal
     * ones keep the order given), then annotation rules in the order given.
     */
    static final java.util.Comparator<Rule> MOST_SPECIFIC_FIRST = (a, b) -> {
        if (a.pattern == null || b.pattern == null) {
            return Boolean.compare(a.pattern == null, b.pattern == null);
        }
        return MethodPattern.compareSpecificity(a.pattern, b.pattern);
    };

    static Rule include(MethodPattern pattern, int level) {
        return new Rule(pattern, null, level);
    }

    static Rule annotation(String name, int level) {
        return new Rule(null, name, level);
    }

    @Override
    public String toString() {
        return (pattern != null ? pattern.toString() : "@" + annotation) + "@" + level;
    }
}
