package dev.jetw.selftest;

import dev.jetw.etw.EtwBackend;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The proof scenario as tests, one code for both backends: {@link PortableProofTest} runs it on every
 * build against the portable backend, {@link WindowsProofTest} against real advapi32 on Windows.
 * A step the backend or account cannot do must come back SKIP with its reason; the test then shows
 * as skipped with that reason. A step it can do must PASS; the failure message carries every detail.
 */
abstract class ProofScenarioContract {

    @TempDir
    Path dir;

    abstract EtwBackend backend();

    /** Whether this account is elevated (null: unknown). */
    abstract Boolean elevated();

    /** Whether {@code step} must run here (else it must be skipped with a reason). */
    abstract boolean mustRun(String step);

    ProofScenario scenario() {
        return new ProofScenario(backend(), dir, elevated());
    }

    @Test
    void fileTrace() {
        check(scenario().fileTrace());
    }

    @Test
    void callerSetTimeStampsAreKept() {
        check(scenario().callerTime());
    }

    @Test
    void orphanFailRefusesASecondStart() {
        check(scenario().orphanFail());
    }

    @Test
    void orphanReuseLogsIntoTheLeftover() {
        check(scenario().orphanReuse());
    }

    @Test
    void orphanRestartReplacesTheLeftover() {
        check(scenario().orphanRestart());
    }

    @Test
    void bufferingWritesTheRingAtFlush() {
        check(scenario().buffering());
    }

    @Test
    void aDumpOfTheRingHoldsItsEventsAndKernelRecords() {
        check(scenario().dump());
    }

    @Test
    void anotherSessionEnablingJetwsGuidTakesNoEvents() {
        check(scenario().foreignEnable());
    }

    @Test
    void thePerEventCallsCrossThroughFfmWhereJavaHasIt() {
        check(scenario().ffm());
    }

    @Test
    void kernelThreadsMatchJetwThreads() {
        check(scenario().kernel());
    }

    @Test
    void tracerptDecodesByName() {
        ProofScenario s = scenario();
        check(s.fileTrace());
        check(s.tracerpt());
    }

    @Test
    void accessDeniedWithoutElevation() {
        check(scenario().notElevated());
    }

    void check(StepResult r) {
        if (mustRun(r.step())) {
            assertEquals(StepResult.Verdict.PASS, r.verdict(), () -> r.line() + "\n    " + String.join("\n    ", r.details()));
            return;
        }
        assertEquals(StepResult.Verdict.SKIP, r.verdict(), () -> r.step() + " must be skipped here: " + r.line()
                + "\n    " + String.join("\n    ", r.details()));
        assertFalse(r.summary().isEmpty(), "a skip says why");
        Assumptions.abort(r.step() + " skipped: " + r.summary());
    }
}
