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

    /** Skips the calling test, the reason printed and logged, unless kernel events can be collected here. */
    public static void require(String test) {
        GatedTests.require("kernel-tests.log", "jetw kernel test", test, unavailableReason());
    }
}
