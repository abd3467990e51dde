package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.HotMethods;
import dev.jetw.etl.JetwSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A selected method is registered and given its known decision (attach ramp, hotMethods=) before the rundown can name
 * it: the rundown writes the decision right after the DC_START, so a drain between the two left the method named in
 * the trace without the reason it is absent (AttachRampIT saw 3 of 4 running-hot methods explained in CI).
 */
class MethodAdmissionTest {

    private final MethodRegistry registry = new MethodRegistry(100, AgentOptions.parse("include=a.**").rules);
    private final AdaptiveExclusion exclusion = new AdaptiveExclusion(registry.thresholds, true);
    /** What a rundown draining at the moment of the decision would have named. */
    private final List<MethodRegistry.Entry> drainedDuringDecision = new ArrayList<>();

    private int admit(String method, HotMethods.Decision decision) {
        return Instrumenter.admit(registry, exclusion, "a.A", method, "()V", 1, -1L, (c, m, d) -> {
            for (MethodRegistry.Entry e; (e = registry.pollPendingRundown()) != null; ) {
                drainedDuringDecision.add(e);
            }
            return decision;
        });
    }

    @Test
    void theRundownSeesAMethodOnlyOnceItsDecisionIsApplied() {
        int id = admit("step", new HotMethods.Decision(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH, 0L));

        assertTrue(drainedDuringDecision.isEmpty(), "named before its decision: " + drainedDuringDecision.size());
        MethodRegistry.Entry named = registry.pollPendingRundown();
        assertEquals(id, named.id);
        assertEquals(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH, exclusion.knownReason(named.id), "the rundown finds the reason to write");
        assertTrue(registry.isUninstrumented(id), "excluded: never given advice");
        assertNull(registry.pollPendingRundown());
    }

    @Test
    void aMethodWithoutDecisionIsNamedAndInstrumented() {
        int id = admit("run", null);

        assertEquals(id, registry.pollPendingRundown().id);
        assertNull(exclusion.knownReason(id));
        assertTrue(!registry.isUninstrumented(id));
    }

    /** A retransformation admits the method again: the same id, no second DC_START. */
    @Test
    void admittedAgainItIsNamedOnce() {
        int id = admit("run", null);
        assertSame(registry.pollPendingRundown(), registry.entry(id));

        assertEquals(id, admit("run", null));
        assertNull(registry.pollPendingRundown(), "named once");
        assertTrue(drainedDuringDecision.isEmpty());
    }

    @Test
    void aMethodItsRuleLeavesOutIsNeitherDecidedNorNamed() {
        MethodRegistry tiny = new MethodRegistry(1, AgentOptions.parse("include=a.**,maxMethods=1").rules);
        AdaptiveExclusion x = new AdaptiveExclusion(tiny.thresholds, true);
        int decided = 0;
        int admitted = 0;
        for (String m : List.of("a", "b", "c", "d", "e", "f", "g", "h")) {
            int[] asked = {0};
            int id = Instrumenter.admit(tiny, x, "a.A", m, "()V", 1, -1L, (c, n, d) -> {
                asked[0]++;
                return null;
            });
            decided += asked[0];
            admitted += id == 0 ? 0 : 1;
        }
        assertEquals(admitted, decided, "a decision is asked only for a method that got an id");
        int named = 0;
        while (tiny.pollPendingRundown() != null) {
            named++;
        }
        assertEquals(admitted, named);
    }
}
