package dev.jetw.selftest;

import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;

import java.util.Arrays;
import java.util.List;

/**
 * The proof scenario against the portable backend, on every build: the file, caller-time, orphan and buffering
 * steps, the dump and a foreign enable must pass; kernel, tracerpt, FFM and the access-denied path must be
 * skipped with their reason.
 */
class PortableProofTest extends ProofScenarioContract {

    private static final List<String> PORTABLE_STEPS = Arrays.asList(ProofScenario.FILE_TRACE, ProofScenario.CALLER_TIME, ProofScenario.ORPHAN_FAIL,
            ProofScenario.ORPHAN_REUSE, ProofScenario.ORPHAN_RESTART, ProofScenario.BUFFERING, ProofScenario.DUMP,
            ProofScenario.FOREIGN_ENABLE);

    @Override
    EtwBackend backend() {
        return EtwBackends.create("portable");
    }

    @Override
    Boolean elevated() {
        return Boolean.FALSE;
    }

    @Override
    boolean mustRun(String step) {
        return PORTABLE_STEPS.contains(step);
    }
}
