package dev.jetw.etw.portable;

import java.io.BufferedReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.TimeZone;

/**
 * What the logfile header says about the machine: time zone (from the JVM default zone: its biases, and its id as
 * both names, e.g. "Europe/Berlin"; the daylight name stays empty for a zone without daylight time), boot
 * time, and what wrote the file on which host ({@link #WRITER}). TIME_ZONE_INFORMATION's transition
 * dates stay zero: Java has no single Windows-style rule pair for every zone, so readers see the
 * standard bias only (and the DST bias for reference).
 */
final class SessionEnvironment {

    final int timeZoneBias;
    final String standardName;
    final String daylightName;
    final int daylightBias;
    /** Nominal CPU speed for CpuSpeedInMHz (/proc/cpuinfo), 0 when unknown; readers use it only for clock type 3. */
    final int cpuSpeedMhz;
    private final long uptimeTicks;
    /**
     * What wrote the file and on which host, e.g. "jetw portable backend, Java 17.0.15, Linux 6.18.0 amd64":
     * the header's version fields declare the Windows layout the file follows, not the host's OS.
     */
    static final String WRITER = writer();

    SessionEnvironment() {
        TimeZone tz = TimeZone.getDefault();
        // Windows: UTC = local + Bias (minutes), so Bias is minus the offset.
        timeZoneBias = -tz.getRawOffset() / 60_000;
        // The zone's id ("Europe/Berlin", "UTC"), not its display names: those load the JVM's locale data (CLDR
        // bundles, ~20 ms of premain, BENCHMARKS.md §15) for a short name ("CET") that says less than the id.
        standardName = tz.getID();
        daylightName = tz.useDaylightTime() ? tz.getID() : "";
        daylightBias = tz.useDaylightTime() ? -tz.getDSTSavings() / 60_000 : 0;
        uptimeTicks = uptimeTicks();
        cpuSpeedMhz = cpuMhz();
    }

    private static String writer() {
        return "jetw portable backend, Java " + System.getProperty("java.version") + ", " + System.getProperty("os.name")
                + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    }

    /** The first processor's "cpu MHz": read up to that line only (the file has a block per CPU, ~1 KB each). */
    private static int cpuMhz() {
        Path p = Paths.get("/proc/cpuinfo");
        try {
            if (Files.isReadable(p)) {
                try (BufferedReader in = Files.newBufferedReader(p, StandardCharsets.US_ASCII)) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        if (line.startsWith("cpu MHz")) {
                            return (int) Math.round(Double.parseDouble(line.substring(line.indexOf(':') + 1).trim()));
                        }
                    }
                }
            }
        } catch (Exception e) {
            // unknown
        }
        return 0;
    }

    /** FILETIME of the machine's boot: now minus the OS uptime (/proc/uptime), else the JVM's start. */
    long bootTime(long nowFiletime) {
        return nowFiletime - uptimeTicks;
    }

    private static long uptimeTicks() {
        Path p = Paths.get("/proc/uptime");
        try {
            if (Files.isReadable(p)) {
                String s = new String(Files.readAllBytes(p), StandardCharsets.US_ASCII).trim();
                double seconds = Double.parseDouble(s.substring(0, s.indexOf(' ')));
                return (long) (seconds * 10_000_000L);
            }
        } catch (Exception e) {
            // fall back below
        }
        return ManagementFactory.getRuntimeMXBean().getUptime() * 10_000L;
    }
}
