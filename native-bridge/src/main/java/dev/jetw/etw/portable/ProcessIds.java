package dev.jetw.etw.portable;

import java.lang.management.ManagementFactory;

/**
 * The process id ETW puts in every record. Java 9+ has ProcessHandle (reached by reflection: main
 * code targets Java 8); on 8 the RuntimeMXBean name "pid@host" carries it.
 */
final class ProcessIds {

    private static final int PID = find();

    private ProcessIds() {
    }

    static int current() {
        return PID;
    }

    private static int find() {
        try {
            Class<?> ph = Class.forName("java.lang.ProcessHandle");
            Object self = ph.getMethod("current").invoke(null);
            return (int) (long) (Long) ph.getMethod("pid").invoke(self);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Java 8: fall through.
        }
        try {
            String name = ManagementFactory.getRuntimeMXBean().getName();
            int at = name.indexOf('@');
            return Integer.parseInt(at > 0 ? name.substring(0, at) : name);
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
