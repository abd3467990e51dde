package dev.jetw.agent.core;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.exclusion.ExcludedMethodRemover;
import dev.jetw.agent.core.handoff.HandoffInstrumenter;
import dev.jetw.agent.core.instrument.AttachRamp;
import dev.jetw.agent.core.instrument.FirstMatchTransformer;
import dev.jetw.agent.core.instrument.Instrumenter;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.AttachHot;
import dev.jetw.agent.core.options.Durations;
import dev.jetw.etw.ProcessId;
import dev.jetw.agent.core.runtime.RuntimeEvents;
import dev.jetw.agent.core.session.DumpFiles;
import dev.jetw.agent.core.session.EventOutcomes;
import dev.jetw.agent.core.session.TraceSession;
import dev.jetw.agent.core.writing.HandoffWriter;
import dev.jetw.agent.core.writing.Rundown;
import dev.jetw.agent.core.writing.TraceWriter;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.Handoff;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;

/**
 * One attached agent: its session, method registry, event writer, instrumentation and shutdown
 * hook. {@link #start} brings them up in the order that keeps the trace self-describing (session,
 * then handler, then instrumentation with rundown); {@link #stop} takes them down in reverse.
 *
 * <p>At start-up ({@link #startAtPremain}) the instrumentation and what only serves it (Byte Buddy, the hand-off
 * advice, the remover, the JVM events' JFR stream) come up at the first class the options may select
 * ({@link FirstMatchTransformer}), on the thread that loads it; until then the agent is the session, the writer
 * and one name test per loaded class (docs/agent-options.md "Start-up").
 */
final class Agent {

    static final String ACTIVE_PROPERTY = "jetw.agent.active";

    final AgentOptions options;
    private final TraceSession session;
    /** Package-private for tests: which methods the budget chose. */
    final MethodRegistry registry;
    private final AdaptiveExclusion exclusion;
    private final TraceWriter writer;
    private final Rundown rundown;
    private final Selection selection;
    private final Instrumentation inst;
    /** Null until the instrumentation is up (at start-up: at the first class that may be selected). */
    private volatile Instrumenter instrumenter;
    /** Whether the hand-off advice goes in: not with propagate=false or without the bootstrap classes on the boot class path. */
    private final boolean propagates;
    /** Null when {@link #propagates} is false, or until the instrumentation is up. */
    private volatile HandoffInstrumenter handoffs;
    /** Null when adaptive=false or uninstrumentRate=0, or until the instrumentation is up. */
    private volatile ExcludedMethodRemover remover;
    private final Thread shutdownHook;
    /** Null until the instrumentation is up. */
    private volatile RuntimeEvents runtimeEvents;
    /** The start-up transformer (premain only), else null. */
    private FirstMatchTransformer firstMatch;
    /** At attach to a running JVM: instruments the loaded classes progressively (else null). */
    private volatile AttachRamp ramp;
    private volatile boolean stopped;

    private Agent(AgentOptions options, TraceSession session, Instrumentation inst) {
        this.options = options;
        this.session = session;
        this.inst = inst;
        this.selection = new Selection(options);
        this.registry = new MethodRegistry(options.maxMethods, selection.rules());
        this.exclusion = new AdaptiveExclusion(registry.thresholds, options.adaptive);
        this.writer = new TraceWriter(session.provider, registry, exclusion, options.exceptionLevel);
        this.rundown = new Rundown(session.provider, registry, writer);
        // The hand-off advice can run only when the bootstrap classes are the boot loader's (java.* calls them). Asked
        // here, not of HandoffInstrumenter: loading that class is not needed to tell.
        this.propagates = options.propagate && Handoff.class.getClassLoader() == null;
        if (propagates) {
            writer.linkThreads(new HandoffWriter(session.provider, writer));
        }
        this.shutdownHook = dev.jetw.etw.JetwThreads.register(new Thread(new OnShutdown(this), "jetw-shutdown"));
    }

    /*
     * The shutdown hook's and the first match's callbacks are classes, not lambdas: both are made in premain, where
     * a lambda spins a class at run time and the first one sets up the JVM's lambda machinery (~5 ms; BENCHMARKS.md §15).
     */

    /** The shutdown hook's body: {@link #onShutdown}. */
    private static final class OnShutdown implements Runnable {
        private final Agent agent;

        OnShutdown(Agent agent) {
            this.agent = agent;
        }

        @Override
        public void run() {
            agent.onShutdown();
        }
    }

    /** {@link #bringUpAtFirstMatch}, for the {@link FirstMatchTransformer}. */
    private static final class BringUpAtFirstMatch implements FirstMatchTransformer.BringUp {
        private final Agent agent;

        BringUpAtFirstMatch(Agent agent) {
            this.agent = agent;
        }

        @Override
        public ClassFileTransformer bringUp(boolean retransformLoaded) {
            return agent.bringUpAtFirstMatch(retransformLoaded);
        }
    }

    /** When the instrumentation comes up, and how the classes loaded already are instrumented. */
    enum Start {
        /** Now, the loaded classes retransformed before start returns (tests, run()). */
        NOW,
        /**
         * -javaagent: at the first class that may be selected (or now, when a class loaded before the agent may be),
         * without Byte Buddy until then.
         */
        AT_FIRST_MATCH,
        /**
         * Attach to a running JVM: now, the loaded classes instrumented by the {@link AttachRamp} on its own thread
         * ({@link #awaitRamp}).
         */
        ATTACH_RAMP
    }

    /** Starts the session and instruments; throws with a one-line message when the session will not start. */
    static Agent start(AgentOptions options, Instrumentation inst, EtwBackend backend) throws EtwException {
        return start(options, inst, backend, Start.NOW);
    }

    static Agent start(AgentOptions options, Instrumentation inst, EtwBackend backend, Start when) throws EtwException {
        if (options.bootstrap && Dispatcher.class.getClassLoader() != null) {
            throw new IllegalStateException("bootstrap=true needs the jetw-bootstrap jar on the boot class path "
                    + "(the jetw agent jar puts it there; Dispatcher was loaded by " + Dispatcher.class.getClassLoader() + ")");
        }
        TraceSession session = TraceSession.start(backend, options.session, options.enableLevel);
        Agent agent = new Agent(options, session, inst);
        try {
            agent.writer.nameCurrentThread(); // also warms the write path before any class is transformed
            Dispatcher.install(agent.writer);
            if (when == Start.AT_FIRST_MATCH) {
                agent.firstMatch = new FirstMatchTransformer(inst, agent.selection, new BringUpAtFirstMatch(agent));
                agent.firstMatch.register();
            } else {
                agent.bringUp(null, when == Start.ATTACH_RAMP);
            }
            Runtime.getRuntime().addShutdownHook(agent.shutdownHook);
            System.setProperty(ACTIVE_PROPERTY, "true");
        } catch (RuntimeException | Error e) {
            agent.tearDownInstrumentation();
            Dispatcher.install(null);
            agent.rundown.close();
            session.stop();
            throw e;
        }
        return agent;
    }

    /**
     * Brings up the instrumentation and what serves it. {@code routedLoads}: null at attach (the transformer sees
     * every load and retransforms the classes loaded); at start-up whether a class loaded before the agent may be
     * selected. Returns the transformer the first-match transformer hands loads to (null at attach).
     */
    private synchronized ClassFileTransformer bringUp(Boolean routedLoads, boolean ramped) {
        Instrumenter i = new Instrumenter(inst, selection, registry, exclusion, options.hotMethods, rundown, options.verbose);
        instrumenter = i;
        ClassFileTransformer loads = null;
        if (ramped) {
            ramp = new AttachRamp(i, selection, options.attachHot, writer::writeClassesLeftAlone);
            ramp.start();
        } else if (routedLoads == null) {
            i.install();
        } else {
            loads = i.installRoutingLoads(routedLoads);
        }
        if (propagates) {
            handoffs = new HandoffInstrumenter(inst, options.verbose);
            Handoff.install(writer.handoffs());
            handoffs.install();
        }
        if (options.adaptive && options.uninstrumentRate > 0) {
            remover = new ExcludedMethodRemover(exclusion, registry, inst, registry.capacity(), options.uninstrumentRate);
            remover.start();
        }
        runtimeEvents = RuntimeEvents.start(session.provider, options.jvmFamilies, options.jvmThresholdNanos);
        return loads;
    }

    /** {@link FirstMatchTransformer.BringUp}: a failure is one line, as at start-up, and the application runs on untraced. */
    private synchronized ClassFileTransformer bringUpAtFirstMatch(boolean retransformLoaded) {
        if (stopped) {
            return null;
        }
        try {
            return bringUp(retransformLoaded, false);
        } catch (RuntimeException | Error e) {
            tearDownInstrumentation();
            System.err.println("jetw: agent: the instrumentation could not start (" + e + "); no method is traced");
            return null;
        }
    }

    /** Undoes what {@link #bringUp} did, as far as it got. */
    private void tearDownInstrumentation() {
        if (firstMatch != null) {
            firstMatch.close();
        }
        if (ramp != null) {
            ramp.stop();
        }
        if (remover != null) {
            remover.stop();
        }
        Handoff.install(null);
        // Each undo on its own: an Error from one (the JVM's OutOfMemoryError or InternalError from a retransformation)
        // must neither skip the others nor replace the failure being reported.
        final Instrumenter i = instrumenter;
        if (i != null) {
            restored(() -> i.reset(), null, null);
        }
        final HandoffInstrumenter h = handoffs;
        if (h != null) {
            restored(() -> h.reset(), null, null);
        }
        if (runtimeEvents != null) {
            runtimeEvents.stop();
        }
    }

    /**
     * Waits until the attach ramp's first tier is instrumented (at once without a ramp): the attach command replies then
     * and the ramp goes on in the background (docs/attach-ramp.md).
     */
    void awaitRamp() {
        AttachRamp r = ramp;
        if (r == null) {
            return;
        }
        try {
            r.awaitFirstTier();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One line saying what was started. */
    String startedLine() {
        RuntimeEvents events = runtimeEvents;
        return "jetw agent attached: session " + session.config.sessionName() + ", backend " + session.backend.name()
                + ", file " + session.file() + ", " + registry.count() + " methods instrumented so far"
                + " (classes loaded later are instrumented as they load)"
                + (options.hotMethods == null ? "" : ", hot methods: " + options.hotMethods.size() + " in " + options.hotMethods.path())
                + ", jvm events " + (events == null ? jvmEventsBeforeFirstMatch() : events.startLine()) + rampLine();
    }

    /** Nothing without a ramp or with nothing after its first tier; else that it goes on and how to follow it. */
    private String rampLine() {
        AttachRamp r = ramp;
        if (r == null) {
            return "";
        }
        if (!r.continuesAfterFirstTier()) {
            int left = r.hotClassesLeftAlone();
            return left == 0 ? "" : "\nattach ramp: done; " + left + " hot classes (on a running stack or compiled) not traced in this attach ("
                    + AttachHot.KEY + "=skip); " + AttachHot.KEY + "=defer traces them too";
        }
        return "\nattach ramp: the first tier is in; the other loaded classes follow in the background (hot classes: "
                + AttachHot.KEY + "=" + options.attachHot.value() + options.attachHot.replyNote() + "); follow it with: jetw status " + ProcessId.current(); // the CLI names its launcher
    }

    /** The human-readable status: session, backend, file, methods, events, errors. */
    String status() {
        SessionStats stats = session.query();
        Throwable last = Dispatcher.lastError();
        StringBuilder sb = new StringBuilder();
        sb.append("jetw agent status\n");
        sb.append("session:             ").append(session.config.sessionName()).append('\n');
        sb.append("backend:             ").append(session.backend.name()).append('\n');
        sb.append("file:                ").append(session.file()).append('\n');
        sb.append("methods instrumented: ").append(registry.count());
        if (registry.guardReached()) {
            sb.append(" (maxMethods=").append(options.maxMethods).append(" reached)");
        }
        sb.append('\n');
        AttachRamp r = ramp;
        if (r != null) {
            sb.append("attach ramp:         ").append(r.status()).append('\n');
        }
        sb.append(registry.budgetReport());
        sb.append("methods excluded:    ").append(exclusion.excludedCount())
                .append(options.adaptive ? " (adaptive: hot and short)" : " (adaptive=false)");
        if (options.hotMethods != null) {
            sb.append(", ").append(exclusion.knownExcludedCount()).append(" of them from hotMethods= (never instrumented)");
        }
        if (exclusion.attachExcludedCount() > 0) {
            // Not adaptive: the attach ramp saw them running hot (docs/attach-ramp.md); without this they read as hot-short.
            sb.append(", ").append(exclusion.attachExcludedCount()).append(" of them running hot at attach (never traced)");
        }
        if (remover != null) {
            sb.append(", ").append(remover.classesRetransformed()).append(" classes retransformed without their advice")
                    .append(remover.waiting(System.nanoTime()));
        }
        sb.append('\n');
        sb.append("methods thresholded: ").append(exclusion.thresholdedCount()).append(" (adaptive: hot, given threshold ")
                .append(Durations.format(AdaptiveExclusion.HOT_THRESHOLD_NANOS)).append(")");
        if (options.hotMethods != null) {
            sb.append(", ").append(exclusion.knownThresholdedCount()).append(" of them from hotMethods= (")
                    .append(options.hotMethods.size()).append(" methods in ").append(options.hotMethods.path()).append(')');
        }
        sb.append('\n');
        RuntimeEvents jvm = runtimeEvents;
        HandoffInstrumenter h = handoffs;
        sb.append("jvm events:          ").append(jvm == null ? jvmEventsBeforeFirstMatch() : jvm.status()).append('\n');
        sb.append("cross-thread links:  ").append(h != null ? "on, advice in " + h.transformedClasses() + " JDK classes"
                : propagates ? "on from the first class that may be selected (none has loaded yet)"
                : options.propagate ? "off (the jetw bootstrap classes are not on the boot class path)" : "off (propagate=false)").append('\n');
        sb.append("threads traced:      ").append(writer.threadCount()).append('\n');
        EventOutcomes events = new EventOutcomes(session.provider, stats);
        sb.append("events emitted:      ").append(events.emitted).append('\n');
        sb.append("events written:      ").append(events.written).append(" (reached the file or ring)\n");
        sb.append("events in buffers:   ").append(events.inBuffers).append(" (not written yet)\n");
        sb.append("events dropped:      ").append(events.dropped).append(" (refused before a buffer)\n");
        sb.append("events lost:         ").append(events.lostText()).append(" (in buffers that could not be written)\n");
        sb.append("events truncated:    ").append(session.provider.eventsTruncated()).append('\n');
        if (events.kernel != null) {
            sb.append("kernel events:       ").append(events.kernel).append('\n');
        }
        sb.append("enabled level:       ").append(session.provider.isEnabled() ? levelName(session.provider.enabledLevel()) : "disabled").append('\n');
        sb.append("internal errors:     ").append(Dispatcher.internalErrors()).append('\n');
        String lastError = events.writeError != null ? events.writeError : last == null ? "none" : last.toString().replace('\n', ' ');
        sb.append("last error:          ").append(lastError).append('\n');
        return sb.toString();
    }

    /**
     * ./jetw dump: writes what the session holds now to a new .etl, tracing goes on. A ring or a
     * circular file gets the method and thread rundown (DC_START) first, so that the dump names the
     * methods its events reference even when their first DC_STARTs were overwritten. Returns the reply
     * line (a failure starts with "jetw: ").
     */
    synchronized String dump(java.nio.file.Path target) {
        if (stopped) {
            return "jetw: dump: the agent is detached";
        }
        java.nio.file.Path file = target != null ? target : DumpFiles.defaultFor(options.logFile, session.config.sessionName());
        SessionConfig c = session.config;
        if (c.has(LogFileMode.BUFFERING) || c.has(LogFileMode.CIRCULAR)) {
            rundown.writeStartsAgain();
        }
        try {
            session.backend.dumpSession(c.sessionName(), file);
        } catch (EtwException e) {
            Dispatcher.failed(e);
            return DumpFiles.refusal(file, e);
        } catch (RuntimeException e) {
            Dispatcher.failed(e);
            return "jetw: dump: " + e.getMessage();
        }
        return "jetw agent dumped session " + c.sessionName() + " to " + file + " (tracing goes on)";
    }

    /**
     * Detach: original class bytes back, rundown end, session stopped. Returns the summary line.
     * Idempotent; the shutdown hook uses the same path without the retransformation.
     */
    synchronized String stop(boolean restoreClasses) {
        if (stopped) {
            return summary(null);
        }
        stopped = true;
        if (firstMatch != null) {
            firstMatch.close(); // no class load is handed to the instrumentation after this
        }
        if (ramp != null) {
            ramp.stop(); // the classes under way finish, unpaced, before they are restored
        }
        if (remover != null) {
            remover.stop();
        }
        String problem = null;
        if (handoffs != null) {
            Handoff.install(null); // tasks still queued then run as they are
        }
        if (restoreClasses) {
            if (handoffs != null) {
                problem = restored(handoffs::reset, "some JDK classes could not be restored", problem);
            }
            if (instrumenter != null) {
                problem = restored(instrumenter::reset, "some classes could not be restored", problem);
            }
        }
        // Before the session stops: JFR's last events still go in. Without restoring classes this is the shutdown hook.
        String jvmNote = runtimeEvents == null ? null : runtimeEvents.stop(!restoreClasses);
        if (options.verbose && runtimeEvents != null && runtimeEvents.stopReport() != null) {
            System.err.println("jetw: jvm events: stop at exit: " + runtimeEvents.stopReport());
        }
        if (jvmNote != null) {
            problem = (problem == null ? "" : problem + "; ") + jvmNote;
        }
        writer.writeTrivialLeftOut(registry.trivialLeftOut());
        rundown.writeEnds();
        if (Dispatcher.handler() == writer) {
            Dispatcher.install(null);
        }
        SessionStats stats = null;
        try {
            stats = session.stop();
        } catch (EtwException | RuntimeException e) {
            Dispatcher.failed(e);
            problem = (problem == null ? "" : problem + "; ") + "stopping the session: " + e.getMessage();
        }
        System.clearProperty(ACTIVE_PROPERTY);
        if (restoreClasses) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
        lastStats = stats;
        return summary(problem);
    }

    private volatile SessionStats lastStats;

    /**
     * One reset of the detach: the problem to report after it ({@code notAll} when it says not all were restored).
     * Whatever it throws (an Error too: the JVM's InternalError or OutOfMemoryError) is counted and reported, and the
     * detach goes on to stop the session and write its ends: the detach has already forgotten this agent, so nothing
     * else would stop it.
     */
    private static String restored(java.util.function.BooleanSupplier reset, String notAll, String problem) {
        try {
            return reset.getAsBoolean() ? problem : withProblem(problem, notAll);
        } catch (Throwable e) {
            Dispatcher.failed(e);
            return withProblem(problem, "restoring classes failed: " + e);
        }
    }

    private static String withProblem(String problem, String another) {
        return problem == null ? another : problem + "; " + another;
    }

    private String summary(String problem) {
        SessionStats stats = lastStats;
        EventOutcomes events = new EventOutcomes(session.provider, stats);
        String p = events.writeError == null ? problem
                : (problem == null ? "" : problem + "; ") + "writing the file failed: " + events.writeError;
        return events.line() + ", " + registry.count() + " methods, file " + session.file()
                + (p == null ? "" : " (" + p + ")");
    }

    private void onShutdown() {
        try {
            String line = stop(false);
            System.err.println("jetw: " + line);
        } catch (Throwable t) {
            System.err.println("jetw: shutdown: " + t);
        }
    }

    boolean isStopped() {
        return stopped;
    }

    /** Start-up, before the first class that may be selected: the JVM events are not recorded yet. */
    private String jvmEventsBeforeFirstMatch() {
        return options.jvmFamilies.isEmpty() ? "none"
                : String.join(",", options.jvmFamilies) + " from the first class that may be selected (none has loaded yet)";
    }

    private static String levelName(int level) {
        return level == 255 ? "all (255)" : dev.jetw.etl.TraceLevel.name(level) + " (" + level + ")";
    }
}
