package dev.jetw.etw.portable.linux;

/**
 * The CPUs the kernel may ever bring online ({@code /sys/devices/system/cpu/possible}, e.g. "0-7" or
 * "0,2-3"): tracefs has a {@code per_cpu/cpuN} for each, and a kernel record's buffer carries N as its
 * ProcessorIndex, which readers require below the file's NumberOfProcessors. The JVM's
 * availableProcessors() can be smaller (a container's CPU quota, an affinity mask), so it cannot size that.
 */
final class CpuList {

    private CpuList() {
    }

    /** One more than the highest possible CPU number; at least the JVM's available processors. */
    static int possible() {
        int n = Runtime.getRuntime().availableProcessors();
        String s = ProcFs.readSmall("/sys/devices/system/cpu/possible");
        return s == null ? n : Math.max(n, parse(s));
    }

    /** One more than the highest CPU of a kernel CPU list ("0-3,8"), 0 for an empty or malformed one. */
    static int parse(String list) {
        java.util.List<Integer> cpus = members(list);
        return cpus.isEmpty() ? 0 : java.util.Collections.max(cpus) + 1;
    }

    /** The CPUs to open per-CPU events on, and, when they are not the online list, where they came from. */
    static final class Online {
        final java.util.List<Integer> cpus;
        /** Null when read from /sys/devices/system/cpu/online; else which list stood in for it, for a notice. */
        final String note;

        Online(java.util.List<Integer> cpus, String note) {
            this.cpus = cpus;
            this.note = note;
        }
    }

    /** The CPUs online now ({@code /sys/devices/system/cpu/online}), else the best stand-in (see below). */
    static Online online() {
        return online(ProcFs.readSmall("/sys/devices/system/cpu/online"),
                ProcFs.readSmall("/sys/devices/system/cpu/possible"), ProcFs.readSmall("/proc/stat"),
                Runtime.getRuntime().availableProcessors());
    }

    /**
     * The online list; when it cannot be read, the possible list (a CPU of it that is offline is skipped at open with
     * ENODEV), else the CPUs {@code /proc/stat} counts (cpuN lines: every online CPU, whatever this thread's affinity),
     * else 0 to {@code available}-1 (the JVM's count, which an affinity mask or cpuset may make name the wrong CPUs).
     */
    static Online online(String online, String possible, String procStat, int available) {
        java.util.List<Integer> cpus = members(online);
        if (!cpus.isEmpty()) {
            return new Online(cpus, null);
        }
        cpus = members(possible);
        if (!cpus.isEmpty()) {
            return new Online(cpus, "/sys/devices/system/cpu/online is not readable: perf events are opened on the"
                    + " possible CPUs (" + possible.trim() + ")");
        }
        cpus = statCpus(procStat);
        if (!cpus.isEmpty()) {
            return new Online(cpus, "/sys/devices/system/cpu/online and possible are not readable: perf events are"
                    + " opened on the " + cpus.size() + " CPUs /proc/stat lists");
        }
        for (int i = 0; i < available; i++) {
            cpus.add(i);
        }
        return new Online(cpus, "neither /sys/devices/system/cpu/online nor /proc/stat is readable: perf events are"
                + " opened on CPUs 0 to " + (available - 1) + " (the JVM's available processors: under an affinity mask"
                + " or cpuset these may not be the CPUs it runs on)");
    }

    /** The N of /proc/stat's "cpuN" lines, in order; empty when there are none. */
    static java.util.List<Integer> statCpus(String procStat) {
        java.util.List<Integer> cpus = new java.util.ArrayList<Integer>();
        if (procStat == null) {
            return cpus;
        }
        for (String line : procStat.split("\n")) {
            if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                int space = line.indexOf(' ');
                try {
                    cpus.add(Integer.parseInt(line.substring(3, space < 0 ? line.length() : space)));
                } catch (NumberFormatException e) {
                    // not a cpuN line
                }
            }
        }
        return cpus;
    }

    /** The CPUs of a kernel CPU list ("0-3,8"), in order; empty for a missing or malformed one. */
    static java.util.List<Integer> members(String list) {
        java.util.List<Integer> cpus = new java.util.ArrayList<Integer>();
        if (list == null) {
            return cpus;
        }
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            try {
                int from = Integer.parseInt(dash < 0 ? part.trim() : part.substring(0, dash).trim());
                int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
                for (int c = from; c <= to; c++) {
                    cpus.add(c);
                }
            } catch (NumberFormatException e) {
                cpus.clear();
                return cpus;
            }
        }
        return cpus;
    }
}
