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

    /** The CPUs online now ({@code /sys/devices/system/cpu/online}); 0 to availableProcessors()-1 when unreadable. */
    static java.util.List<Integer> online() {
        java.util.List<Integer> cpus = members(ProcFs.readSmall("/sys/devices/system/cpu/online"));
        if (cpus.isEmpty()) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                cpus.add(i);
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
