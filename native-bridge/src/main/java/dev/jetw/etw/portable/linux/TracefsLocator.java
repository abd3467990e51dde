package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds the tracefs root: /sys/kernel/tracing, then /sys/kernel/debug/tracing (debugfs auto-mounts tracefs
 * there), then any tracefs mount listed in /proc/mounts. When none is mounted and we are root it mounts
 * tracefs at /sys/kernel/tracing (the canonical place; it is left mounted: other tools may use it from then on).
 * The system property {@value #PROPERTY} names the root instead (nothing else is tried, nothing mounted): for
 * a tracefs mounted somewhere unusual, and for tests of a host without one.
 */
final class TracefsLocator {

    static final String CANONICAL = "/sys/kernel/tracing";
    /** A tracefs root to use instead of looking for one. */
    static final String PROPERTY = "jetw.tracefs";

    /** Where tracefs is, and whether this call mounted it. */
    static final class Found {
        final File root;
        final boolean mountedByUs;

        Found(File root, boolean mountedByUs) {
            this.root = root;
            this.mountedByUs = mountedByUs;
        }

        @Override
        public String toString() {
            return root + (mountedByUs ? " (mounted by us)" : "");
        }
    }

    private TracefsLocator() {
    }

    /** A directory is a usable tracefs root when it has trace_clock and instances/. */
    static boolean isTracefsRoot(File dir) {
        return new File(dir, "trace_clock").isFile() && new File(dir, "instances").isDirectory();
    }

    /** The first usable root, or null. */
    static File find() {
        String forced = System.getProperty(PROPERTY);
        if (forced != null) {
            File f = new File(forced);
            return isTracefsRoot(f) ? f : null;
        }
        for (String c : candidates()) {
            File f = new File(c);
            if (isTracefsRoot(f)) {
                return f;
            }
        }
        return null;
    }

    /** Candidate roots in order of preference. */
    static List<String> candidates() {
        List<String> out = new ArrayList<String>();
        out.add(CANONICAL);
        out.add("/sys/kernel/debug/tracing");
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/mounts"), StandardCharsets.UTF_8)) {
                String[] f = line.split(" ");
                if (f.length >= 3 && f[2].equals("tracefs")) {
                    out.add(unescape(f[1]));
                } else if (f.length >= 3 && f[2].equals("debugfs")) {
                    out.add(unescape(f[1]) + "/tracing");
                }
            }
        } catch (IOException e) {
            // no /proc/mounts: only the fixed places
        }
        return out;
    }

    /** /proc/mounts writes space, tab, newline and backslash in a path as \040 \011 \012 \134. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                try {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                    i += 3;
                    continue;
                } catch (NumberFormatException e) {
                    // not an escape
                }
            }
            b.append(c);
        }
        return b.toString();
    }

    /**
     * The tracefs root; mounts it at {@link #CANONICAL} when none is found and {@code mayMount} and we are root.
     * Null when there is none and it cannot be mounted (the caller reports why kernel events are off).
     */
    static Found findOrMount(boolean mayMount) throws IOException {
        File f = find();
        if (f != null) {
            return new Found(f, false);
        }
        if (!mayMount || System.getProperty(PROPERTY) != null || ProcFs.uid() != 0 || !new File(CANONICAL).isDirectory()) {
            return null;
        }
        mount(CANONICAL);
        File c = new File(CANONICAL);
        return isTracefsRoot(c) ? new Found(c, true) : null;
    }

    /** mount -t tracefs nodev DIR (Java has no mount(2); the mount binary is everywhere tracefs is). */
    static void mount(String dir) throws IOException {
        run("mount", "-t", "tracefs", "nodev", dir);
    }

    private static void run(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroy();
                throw new IOException(String.join(" ", cmd) + ": timed out");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            byte[] out = new byte[4096];
            int n = p.getInputStream().read(out);
            throw new IOException(String.join(" ", cmd) + " failed (" + p.exitValue() + "): "
                    + (n > 0 ? new String(out, 0, n, StandardCharsets.UTF_8).trim() : ""));
        }
    }
}
