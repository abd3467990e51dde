package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * What /proc says about processes and threads: our pid, a process's start time (to tell a live process from
 * a reused pid), its threads and their names. Java 8 API only. (The calling thread's own kernel tid is
 * dev.jetw.etw.OsThreadId's.)
 *
 * <p>Symbolic links are read with {@link Files#readSymbolicLink} and never with File.getCanonicalFile(): Java 8
 * caches canonical paths for 30 s (sun.io.useCanonCaches).
 */
final class ProcFs {

    private ProcFs() {
    }

    /** The pid of this JVM (the tgid). */
    static int selfPid() throws IOException {
        long pid = dev.jetw.etw.ProcessId.ofProcSelf(Paths.get("/proc/self"));
        if (pid <= 0) {
            throw new IOException("/proc/self does not name a process");
        }
        return (int) pid;
    }

    /**
     * Field 22 of /proc/pid/stat: the start time in clock ticks since boot, or -1 when the process does not
     * exist. The command name (field 2) may hold spaces and parentheses, so fields are counted from the last ')'.
     */
    static long startTime(int pid) {
        String[] f = statFields(pid);
        return f == null ? -1 : Long.parseLong(f[19]);
    }

    /** The parent pid (field 4), or -1. */
    static int parentPid(int pid) {
        String[] f = statFields(pid);
        return f == null ? -1 : Integer.parseInt(f[1]);
    }

    /** Fields 3.. of /proc/pid/stat (index 0 = state), or null when the process is gone. */
    static String[] statFields(int pid) {
        String s = readSmall("/proc/" + pid + "/stat");
        if (s == null) {
            return null;
        }
        int close = s.lastIndexOf(')');
        return s.substring(close + 2).trim().split(" ");
    }

    /** True while a process with this pid and start time lives (a reused pid has another start time). */
    static boolean isAlive(int pid, long startTime) {
        long now = startTime(pid);
        return now >= 0 && now == startTime;
    }

    /** The tids of a process's threads now (a snapshot: threads come and go while it is taken). */
    static List<Integer> threads(int pid) {
        List<Integer> out = new ArrayList<Integer>();
        String[] names = new File("/proc/" + pid + "/task").list();
        if (names != null) {
            for (String n : names) {
                out.add(Integer.valueOf(n));
            }
        }
        return out;
    }

    /** A thread's name (comm, at most 15 characters), or null when it is gone. */
    static String threadName(int pid, int tid) {
        String s = readSmall("/proc/" + pid + "/task/" + tid + "/comm");
        return s == null ? null : s.trim();
    }

    /** The command line, arguments separated by spaces, or "" (kernel threads, zombies). */
    static String commandLine(int pid) {
        String s = readSmall("/proc/" + pid + "/cmdline");
        return s == null ? "" : s.replace('\0', ' ').trim();
    }

    /** The real uid of this process (the "Uid:" line of /proc/self/status). */
    static int uid() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.UTF_8)) {
            if (line.startsWith("Uid:")) {
                return Integer.parseInt(line.substring(4).trim().split("\\s+")[0]);
            }
        }
        throw new IOException("no Uid line in /proc/self/status");
    }

    /** The process (thread group) of thread {@code tid} of any process, from its status file; -1 when it is gone. */
    static int threadGroup(int tid) {
        String s = readSmall("/proc/" + tid + "/status");
        if (s == null) {
            return -1;
        }
        for (String line : s.split("\n")) {
            if (line.startsWith("Tgid:")) {
                try {
                    return Integer.parseInt(line.substring(5).trim());
                } catch (NumberFormatException e) {
                    return -1;
                }
            }
        }
        return -1;
    }

    /** The whole content of a small text file, or null when it does not exist (any more). */
    static String readSmall(String path) {
        try {
            return TextFiles.read(new File(path));
        } catch (IOException e) {
            return null; // ESRCH and friends while a task exits
        }
    }
}
