package dev.jetw.etw.portable.linux;

import dev.jetw.etl.GatedTests;

import java.io.IOException;

/**
 * The gate of every test that needs the kernel (tracefs as root): it runs where the machine offers that,
 * and elsewhere is skipped with the reason, never passed in silence ({@link GatedTests}: each decision is
 * printed and appended to {@code target/kernel-tests.log}, which {@code .ci/run} counts and prints after the build).
 */
public final class KernelTests {

    private KernelTests() {
    }

    /** Why kernel tests cannot run here, or null when they can. */
    public static String unavailableReason() {
        if (!LinuxKernelCollector.isLinux()) {
            return "not Linux (" + System.getProperty("os.name") + ")";
        }
        try {
            int uid = ProcFs.uid();
            if (uid != 0) {
                return "not root (uid " + uid + "): tracefs is root-only";
            }
        } catch (IOException e) {
            return "no /proc/self/status: " + e.getMessage();
        }
        if (TracefsLocator.find() == null) {
            return "no tracefs mounted (as root: mount -t tracefs nodev /sys/kernel/tracing; .ci/run does)";
        }
        return null;
    }

    /**
     * Why perf-event kernel tests (kernel=profile, memory_hard_faults) cannot run here, or null when they can: the
     * kernel tests' gate, Java 22+ on x86_64 or aarch64, and a cpu-clock event perf_event_open(2) accepts on CPU 0
     * (it needs root, CAP_PERFMON or perf_event_paranoid <= 0, and CONFIG_PERF_EVENTS).
     */
    public static String perfUnavailableReason() {
        String kernel = unavailableReason();
        if (kernel != null) {
            return kernel;
        }
        String missing = PerfCalls.missing();
        if (missing != null) {
            return "kernel=profile " + missing;
        }
        try {
            PerfCalls calls = PerfCalls.open();
            int fd = calls.perfEventOpen(PerfEventAttr.sampling(PerfEventAttr.CPU_CLOCK, PerfSampler.SAMPLE_PERIOD_NANOS,
                    PerfEventAttr.SAMPLE_TID, 0L), -1, CpuList.online().cpus.get(0));
            calls.close(fd);
            return null;
        } catch (IOException e) {
            return "no perf events here: " + e.getMessage();
        }
    }

    /** Skips the calling test, the reason printed and logged, unless perf's CPU samples and hard faults can be collected. */
    public static void requirePerf(String test) {
        GatedTests.require("kernel-tests.log", "jetw kernel test", test, perfUnavailableReason());
    }

    /** Skips the calling test, the reason printed and logged, unless kernel events can be collected here. */
    public static void require(String test) {
        GatedTests.require("kernel-tests.log", "jetw kernel test", test, unavailableReason());
    }
}
