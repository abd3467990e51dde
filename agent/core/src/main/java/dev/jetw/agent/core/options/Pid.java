package dev.jetw.agent.core.options;

import java.lang.management.ManagementFactory;

/**
 * This JVM's process id. Java 9+ has ProcessHandle (reached by reflection: the agent's code targets Java 8); on 8 the
 * RuntimeMXBean's name "pid@host" carries it. Not the MXBean first: it starts the JVM's management and looks the host
 * name up, about 0.1 s of premain (issue 31, BENCHMARKS.md §15).
 */
public final class Pid {

    private Pid() {
    }

    public static long current() {
        try {
            Class<?> ph = Class.forName("java.lang.ProcessHandle");
            return (Long) ph.getMethod("pid").invoke(ph.getMethod("current").invoke(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Java 8: the MXBean's name.
        }
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        try {
            return Long.parseLong(at < 0 ? name : name.substring(0, at));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
