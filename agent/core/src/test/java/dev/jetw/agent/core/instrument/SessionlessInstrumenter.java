package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.AttachHot;
import dev.jetw.agent.core.writing.Rundown;

import java.lang.instrument.Instrumentation;
import java.util.Collections;

/** An {@link Instrumenter} over a JVM (stub or real) with no session: its rundown is closed, as nothing is named. */
final class SessionlessInstrumenter {
    final MethodRegistry registry;
    final Selection selection;
    final Instrumenter instrumenter;

    SessionlessInstrumenter(Instrumentation inst, String options) {
        AgentOptions o = AgentOptions.parse(options);
        registry = new MethodRegistry(o.maxMethods, o.rules);
        Rundown rundown = new Rundown(null, registry, null);
        rundown.close(); // no session here: nothing to name
        selection = new Selection(o);
        instrumenter = new Instrumenter(inst, selection, registry, new AdaptiveExclusion(registry.thresholds, true), null, rundown, false);
    }

    /** An attach ramp that sampled no thread and read no compiled class (every class not seen), hot classes skipped. */
    AttachRamp ramp() {
        AttachRamp ramp = new AttachRamp(instrumenter, selection, AttachHot.SKIP);
        ramp.compiled(Collections.<String>emptySet());
        return ramp;
    }
}
