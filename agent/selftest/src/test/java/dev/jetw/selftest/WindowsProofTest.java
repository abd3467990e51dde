package dev.jetw.selftest;

import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.windows.WindowsVersion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The proof scenario against real advapi32 (Windows only; tag {@code windows}). File, orphan and
 * buffering steps must pass for any account allowed to trace; kernel and tracerpt need an elevated
 * administrator (and Windows 8+ for the kernel), the access-denied path a non-elevated one.
 * With {@code -Djetw.windows.requireElevated=true} (the CI's hosted runners run elevated) the kernel
 * and tracerpt steps must pass instead of being skipped.
 */
@EnabledOnOs(OS.WINDOWS)
@Tag("windows")
class WindowsProofTest extends ProofScenarioContract {

    private static final Boolean ELEVATED = ProofScenario.currentElevation();

    @Override
    EtwBackend backend() {
        return EtwBackends.create("windows");
    }

    @Override
    Boolean elevated() {
        return ELEVATED;
    }

    @Override
    boolean mustRun(String step) {
        boolean elevated = Boolean.TRUE.equals(ELEVATED) || Boolean.getBoolean("jetw.windows.requireElevated");
        switch (step) {
            case ProofScenario.KERNEL:
                return elevated && WindowsVersion.current().hasSystemLoggerMode();
            case ProofScenario.TRACERPT:
                return elevated;
            case ProofScenario.NOT_ELEVATED:
                return Boolean.FALSE.equals(ELEVATED);
            case ProofScenario.FFM:
                return ProofScenario.javaFeature() >= 24; // 22-23: FFM only with --enable-native-access
            default:
                return true;
        }
    }
}
