package dev.jetw.agent.core.options;

import java.lang.management.ManagementFactory;

/** This JVM's process id, the Java 8 way (ProcessHandle is Java 9+). */
final class Pid {

    private Pid() {
    }

    static long current() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        try {
            return Long.parseLong(at < 0 ? name : name.substring(0, at));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
