package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;

/**
 * Option {@code attachHot=}: what the attach ramp does with the loaded classes that are hot when jetw attaches (a
 * method on a running thread's stack, or compiled by the JIT). Retransforming a class throws away the compiled code of
 * all its methods and of every method that inlined one of them, so the hot classes are the ones whose retransformation
 * the application pays for in recompilation (docs/attach-ramp.md). The default is {@link #SKIP}: no stall the user did not
 * ask for (BENCHMARKS.md §22, §24); {@link #DEFER} and {@link #NOW} also trace the hot classes, at the cost of that
 * recompilation.
 */
public enum AttachHot {
    /** Retransformed after every other loaded class, together in one call. */
    DEFER,
    /** Retransformed first, together with the classes seen waiting (the ramp before this option). */
    NOW,
    /** Not retransformed in this attach: their methods are not traced (classes loaded later are). The default. */
    SKIP;

    public static final String KEY = "attachHot";

    public static AttachHot parse(String key, String value) {
        for (AttachHot a : values()) {
            if (a.name().equalsIgnoreCase(value)) {
                return a;
            }
        }
        throw new ConfigException(key, value, "allowed: defer (hot classes last, together), now (hot classes first),"
                + " skip (hot classes not instrumented in this attach)");
    }

    /** What the attach reply says of the hot classes after the option: nothing, or with skip that and how they are traced. */
    public String replyNote() {
        return this == SKIP ? ", not traced in this attach; attachHot=defer traces them too" : "";
    }

    /** The option's value as a user writes it. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
