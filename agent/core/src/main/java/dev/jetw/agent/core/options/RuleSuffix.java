package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;
import dev.jetw.etl.TraceLevel;

/**
 * The {@code @}-suffixes of an include or annotation rule, in any order: a level
 * ({@code @verbose}, {@code @5}) and/or a duration threshold ({@code @1ms}, {@code @0}):
 * {@code org.h2.**@verbose@1ms}. A suffix with a time unit (or a bare 0) is the threshold.
 */
final class RuleSuffix {

    /** -1: the global level. */
    final int level;
    /** -1: the global threshold. */
    final long thresholdNanos;

    private RuleSuffix(int level, long thresholdNanos) {
        this.level = level;
        this.thresholdNanos = thresholdNanos;
    }

    /** Parses what follows the first '@' at {@code at} of {@code item} (none when at < 0); errors name the whole rule. */
    static RuleSuffix parse(String key, String item, int at) {
        int level = -1;
        long threshold = -1;
        if (at >= 0) {
            for (String part : item.substring(at + 1).split("@", -1)) {
                if (Durations.looksLikeDuration(part)) {
                    if (threshold >= 0) {
                        throw new ConfigException(key, item, "a rule takes at most one @threshold");
                    }
                    threshold = Durations.parseNanos(key, item, part);
                } else {
                    if (level >= 0) {
                        throw new ConfigException(key, item, "a rule takes at most one @level");
                    }
                    level = TraceLevel.parse(part);
                    if (level < 1 || level > 255) {
                        throw new ConfigException(key, item, "allowed after '@': a level (critical, error, warning, information, "
                                + "verbose or 1-255) and/or a threshold (0, 500us, 1ms, 1s)");
                    }
                }
            }
        }
        return new RuleSuffix(level, threshold);
    }
}
