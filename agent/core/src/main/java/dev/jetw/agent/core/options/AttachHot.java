package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;

/**
 * Option {@code attachHot=}: what the attach ramp does with the loaded classes that are hot when jetw attaches (a
 * method on a running thread's stack, or compiled by the JIT). Retransforming a class throws away the compiled code of
 * all its methods and of every method that inlined one of them, so the hot classes are the ones whose retransformation
 * the application pays for in recompilation (docs/attach-ramp.md).
 */
public enum AttachHot {
    /** Retransformed after every other loaded class, together in one call (the default). */
    DEFER,
    /** Retransformed first, together with the classes seen waiting (the ramp before this option). */
    NOW,
    /** Not retransformed in this attach: their methods are not traced (classes loaded later are). */
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

    /** The option's value as a user writes it. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
