package dev.jetw.agent.core;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.exclusion.ExcludedMethodRemover;
import dev.jetw.agent.core.handoff.HandoffInstrumenter;
import dev.jetw.agent.core.instrument.AttachRamp;
import dev.jetw.agent.core.instrument.Instrumenter;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.Durations;
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

import java.lang.instrument.Instrumentation;

/**
 * One attached agent: its session, method registry, event writer, instrumentation and shutdown
 * hook. {@link #start} brings them up in the order that keeps the trace self-describing (session,
 * then handler, then instrumentation with rundown); {@link #stop} takes them down in reverse.
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
    private final Instrumenter instrumenter;
    /** At attach to a running JVM: instruments the loaded classes progressively (null at start-up). */
    private final AttachRamp ramp;
    /** Null when propagate=false or the bootstrap classes are not on the boot class path. */
    private final HandoffInstrumenter handoffs;
    /** Null when adaptive=false or uninstrumentRate=0. */
    private final ExcludedMethodRemover remover;
    private final Thread shutdownHook;
    private RuntimeEvents runtimeEvents;
    private volatile boolean stopped;

    private Agent(AgentOptions options, TraceSession session, Instrumentation inst, boolean attaching) {
        this.options = options;
        this.session = session;
        Selection selection = new Selection(options);
        this.registry = new MethodRegistry(options.maxMethods, selection.rules());
        this.exclusion = new AdaptiveExclusion(registry.thresholds, options.adaptive);
        this.writer = new TraceWriter(session.provider, registry, exclusion, options.exceptionLevel);
        this.rundown = new Rundown(session.provider, registry, writer);
        this.instrumenter = new Instrumenter(inst, selection, registry, exclusion, options.hotMethods, rundown, options.verbose);
        this.ramp = attaching ? new AttachRamp(instrumenter, selection) : null;
        this.handoffs = options.propagate && HandoffInstrumenter.available() ? new HandoffInstrumenter(inst, options.verbose) : null;
        if (handoffs != null) {
            writer.linkThreads(new HandoffWriter(session.provider, writer));
        }
        this.remover = options.adaptive && options.uninstrumentRate > 0
                ? new ExcludedMethodRemover(exclusion, registry, inst, registry.capacity(), options.uninstrumentRate)
                : null;
        this.shutdownHook = dev.jetw.etw.JetwThreads.register(new Thread(this::onShutdown, "jetw-shutdown"));
    }

    /**
     * Starts the session and instruments; throws with a one-line message when the session will not start.
     * {@code attaching}: the JVM is running already, so its loaded classes are instrumented by the {@link AttachRamp}
     * on its own thread ({@link #awaitRamp}); at start-up the few loaded classes are retransformed before this returns.
     */
    static Agent start(AgentOptions options, Instrumentation inst, EtwBackend backend, boolean attaching) throws EtwException {
        if (options.bootstrap && Dispatcher.class.getClassLoader() != null) {
            throw new IllegalStateException("bootstrap=true needs the jetw-bootstrap jar on the boot class path "
                    + "(the jetw agent jar puts it there; Dispatcher was loaded by " + Dispatcher.class.getClassLoader() + ")");
        }
        TraceSession session = TraceSession.start(backend, options.session, options.enableLevel);
        Agent agent = new Agent(options, session, inst, attaching);
        try {
            agent.writer.nameCurrentThread(); // also warms the write path before any class is transformed
            Dispatcher.install(agent.writer);
            if (agent.ramp != null) {
                agent.ramp.start();
            } else {
                agent.instrumenter.install();
            }
            if (agent.handoffs != null) {
                Handoff.install(agent.writer.handoffs());
                agent.handoffs.install();
            }
            if (agent.remover != null) {
                agent.remover.start();
            }
            agent.runtimeEvents = RuntimeEvents.start(session.provider, options.jvmFamilies, options.jvmThresholdNanos);
            Runtime.getRuntime().addShutdownHook(agent.shutdownHook);
            System.setProperty(ACTIVE_PROPERTY, "true");
        } catch (RuntimeException | Error e) {
            if (agent.ramp != null) {
                agent.ramp.stop();
            }
            if (agent.remover != null) {
                agent.remover.stop();
            }
            Dispatcher.install(null);
            Handoff.install(null);
            agent.instrumenter.reset();
            if (agent.handoffs != null) {
                agent.handoffs.reset();
            }
            agent.rundown.close();
            if (agent.runtimeEvents != null) {
                agent.runtimeEvents.stop();
            }
            session.stop();
            throw e;
        }
        return agent;
    }

    /** Waits until the attach ramp has instrumented the loaded classes (at once without one). */
    void awaitRamp() {
        if (ramp == null) {
            return;
        }
        try {
            ramp.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One line saying what was started. */
    String startedLine() {
        return "jetw agent attached: session " + session.config.sessionName() + ", backend " + session.backend.name()
                + ", file " + session.file() + ", " + registry.count() + " methods instrumented so far"
                + " (classes loaded later are instrumented as they load)"
                + (options.hotMethods == null ? "" : ", hot methods: " + options.hotMethods.size() + " in " + options.hotMethods.path())
                + ", jvm events " + runtimeEvents.describe() + runtimeEvents.startNote()
                + (runtimeEvents.problem() == null ? "" : "\n" + runtimeEvents.problem());
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
        if (ramp != null) {
            sb.append("attach ramp:         ").append(ramp.status()).append('\n');
        }
        sb.append(registry.budgetReport());
        sb.append("methods excluded:    ").append(exclusion.excludedCount())
                .append(options.adaptive ? " (adaptive: hot and short)" : " (adaptive=false)");
        if (options.hotMethods != null) {
            sb.append(", ").append(exclusion.knownExcludedCount()).append(" of them from hotMethods= (never instrumented)");
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
        sb.append("jvm events:          ").append(runtimeEvents.status()).append('\n');
        sb.append("cross-thread links:  ").append(handoffs == null
                ? (options.propagate ? "off (the jetw bootstrap classes are not on the boot class path)" : "off (propagate=false)")
                : "on, advice in " + handoffs.transformedClasses() + " JDK classes").append('\n');
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
            try {
                if (handoffs != null && !handoffs.reset()) {
                    problem = "some JDK classes could not be restored";
                }
                if (!instrumenter.reset()) {
                    problem = "some classes could not be restored";
                }
            } catch (RuntimeException e) {
                Dispatcher.failed(e);
                problem = "restoring classes failed: " + e;
            }
        }
        String jvmNote = runtimeEvents.stop(); // before the session stops: JFR's last events still go in
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

    private static String levelName(int level) {
        return level == 255 ? "all (255)" : dev.jetw.etl.TraceLevel.name(level) + " (" + level + ")";
    }
}
