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
