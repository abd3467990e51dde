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
        int max = -1;
        for (String part : list.trim().split(",")) {
            if (part.isEmpty()) {
                continue;
            }
            int dash = part.indexOf('-');
            try {
                max = Math.max(max, Integer.parseInt(dash < 0 ? part.trim() : part.substring(dash + 1).trim()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return max + 1;
    }
}
