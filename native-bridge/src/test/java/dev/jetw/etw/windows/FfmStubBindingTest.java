package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every test of {@link StubBindingTest} again, with the per-event calls (TraceEventInstance,
 * TraceEvent, CreateTraceInstanceId) bound to the gcc-built stub through FFM downcall handles:
 * the stub checks the same argument values and struct bytes on the native side. The control
 * calls stay JNA's, as in production.
 */
class FfmStubBindingTest extends StubBindingTest {

    @Override
    String crossing() {
        assumeTrue(Runtime.version().feature() >= 22,
                "FFM is final from Java 22; this JVM is " + Runtime.version().feature() + " (CI's Temurin 25 pass runs it)");
        return EventCrossing.FFM;
    }
}
