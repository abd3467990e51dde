package dev.jetw.etw;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Who holds a lock on an existing file. Every jetw session locks the file it writes (portable backend:
 * FileChannel.tryLock), so a locked file is a live session's, and overwrite=true must leave it alone
 * (issue 27: a second JVM deleted the file the first one was writing).
 */
final class LockHolders {

    private static final long OWN_PID = ownPid();

    private LockHolders() {
    }

    /**
     * Null when no process locks {@code file}, else who does: "process 123 (java)", "this process", or
     * "another process" when the holder is not visible here (another container, no /proc).
     */
    static String holder(Path file) throws IOException {
        long[] id = fileId(file);
        long pid = id == null ? -1 : lockingPid(id[0], id[1]);
        if (pid == OWN_PID) {
            // Probing would open and close a channel of the file, and any close releases this process's locks on it.
            return "this process";
        }
        // The probe decides: /proc/locks hides holders in other pid namespaces.
        // Opened read-only and never read; a shared lock conflicts with a writer's exclusive one only.
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            FileLock probe = c.tryLock(0, Long.MAX_VALUE, true);
            if (probe != null) {
                probe.release();
                return null;
            }
        } catch (OverlappingFileLockException e) {
            return "this process";
        }
        return pid > 0 ? "process " + pid + command(pid) : "another process";
    }

    /** The device and inode of {@code file} as /proc/locks shows them, or null off Linux. */
    private static long[] fileId(Path file) {
        try {
            long dev = ((Number) Files.getAttribute(file, "unix:dev", LinkOption.NOFOLLOW_LINKS)).longValue();
            long ino = ((Number) Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS)).longValue();
            return new long[] {dev, ino};
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The pid of a lock on the inode in /proc/locks ("1: POSIX ADVISORY WRITE 1234 fe:00:5678 0 EOF"), or -1.
     * Matched on the inode, and on the device where it agrees (overlay file systems show another device).
     */
    private static long lockingPid(long dev, long ino) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Paths.get("/proc/locks"), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        String device = Long.toHexString(major(dev)) + ":" + Long.toHexString(minor(dev)) + ":" + ino;
        long onInode = -1;
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            int at = f.length > 1 && f[1].equals("->") ? 1 : 0; // a waiting lock: "1: -> POSIX ..."
            if (f.length < at + 6 || !f[at + 5].endsWith(":" + ino)) {
                continue;
            }
            long pid = Long.parseLong(f[at + 4]);
            if (sameDevice(f[at + 5], device)) {
                return pid;
            }
            onInode = pid;
        }
        return onInode;
    }

    private static boolean sameDevice(String shown, String device) {
        String[] a = shown.split(":");
        String[] b = device.split(":");
        return a.length == 3 && Long.parseLong(a[0], 16) == Long.parseLong(b[0], 16)
                && Long.parseLong(a[1], 16) == Long.parseLong(b[1], 16);
    }

    // glibc's gnu_dev_major and gnu_dev_minor.
    private static long major(long dev) {
        return ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
    }

    private static long minor(long dev) {
        return (dev & 0xff) | ((dev >>> 12) & ~0xffL);
    }

    private static String command(long pid) {
        try {
            return " (" + new String(Files.readAllBytes(Paths.get("/proc", Long.toString(pid), "comm")), StandardCharsets.UTF_8).trim() + ")";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static long ownPid() {
        String jvm = java.lang.management.ManagementFactory.getRuntimeMXBean().getName(); // "pid@host" (Java 8 too)
        try {
            return Long.parseLong(jvm.substring(0, jvm.indexOf('@')));
        } catch (RuntimeException e) {
            return -2;
        }
    }
}
