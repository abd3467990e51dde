package dev.jetw.etw;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.lang.management.ManagementFactory;

/**
 * This JVM's process id (the agent's session and file names, the portable backend's records). On Linux the name
 * {@code /proc/self} links to; elsewhere Java 9+'s ProcessHandle (reached by reflection: this code targets Java 8); on 8 the RuntimeMXBean's name "pid@host" carries it. Not the MXBean
 * first: it starts the JVM's management and looks the host name up, about 0.1 s of premain; not ProcessHandle first
 * on Linux: its first use starts its process reaper's set-up and two lambdas, the first of the JVM (~5 ms; issue 31,
 * BENCHMARKS.md §15).
 */
public final class ProcessId {

    private ProcessId() {
    }

    public static long current() {
        // Only where '/' separates names: on Windows "/proc/self" is a path on the current drive any user may create.
        long proc = File.separatorChar == '/' ? ofProcSelf(Paths.get("/proc/self")) : 0;
        if (proc > 0) {
            return proc;
        }
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

    /**
     * The pid the link {@code self} (Linux's /proc/self) names, or 0 where there is none. The link is read, never
     * canonicalised: Java 8 caches canonical paths for 30 s (sun.io.useCanonCaches).
     */
    public static long ofProcSelf(Path self) {
        try {
            String name = Files.readSymbolicLink(self).toString();
            if (name.isEmpty() || name.length() > 18) {
                return 0;
            }
            for (int i = 0; i < name.length(); i++) {
                if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                    return 0;
                }
            }
            return Long.parseLong(name);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
