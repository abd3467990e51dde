package dev.jetw.selftest;

import dev.jetw.agent.core.AgentSessionOptions;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionController;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import dev.jetw.etw.windows.WindowsVersion;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The proof scenario of jetw on a machine, one code for both backends: the Windows integration tests,
 * the portable tests and {@code jetw selftest} all run these steps. Every step uses the production
 * path (the agent's option parsing, SessionController, ClassicProvider, the backend) and judges the
 * result by reading the file back with jetw's own reader. A step the backend or the account cannot do
 * is skipped with the reason.
 */
public final class ProofScenario {

    public static final String FILE_TRACE = "file-trace";
    public static final String CALLER_TIME = "caller-time";
    public static final String ORPHAN_FAIL = "orphan-fail";
    public static final String ORPHAN_REUSE = "orphan-reuse";
    public static final String ORPHAN_RESTART = "orphan-restart";
    public static final String BUFFERING = "buffering";
    public static final String DUMP = "dump";
    public static final String FOREIGN_ENABLE = "foreign-enable";
    public static final String FFM = "ffm";
    public static final String KERNEL = "kernel";
    public static final String TRACERPT = "tracerpt";
    public static final String NOT_ELEVATED = "not-elevated";

    static final int THREADS = 4;
    static final int CALLS = 25;
    static final int SMALL_THREADS = 2;
    static final int SMALL_CALLS = 10;
    /** How long a provider may take to see its enable request (ETW calls the control callback on its own thread). */
    static final long ENABLE_WAIT_MILLIS = 5_000;

    private final EtwBackend backend;
    private final Path dir;
    private final ThreadIds threadIds;
    private final Boolean elevated;
    private final int processId = currentProcessId();
    /** The file-trace step's outcome, for tracerpt. */
    private TracedRun fileTraceRun;

    /**
     * @param dir      where the traces and tool outputs go (must exist; its path must not contain ',')
     * @param elevated whether the account is an elevated administrator; null when unknown
     */
    public ProofScenario(EtwBackend backend, Path dir, Boolean elevated) {
        this(backend, dir, elevated, ThreadIds.forBackend(backend.name()));
    }

    /** With the thread ids given: tests run the Windows branches over a portable backend under another name. */
    ProofScenario(EtwBackend backend, Path dir, Boolean elevated, ThreadIds threadIds) {
        this.backend = backend;
        this.dir = dir.toAbsolutePath();
        this.threadIds = threadIds;
        this.elevated = elevated;
        if (this.dir.toString().indexOf(',') >= 0) {
            throw new IllegalArgumentException("the folder " + this.dir + " contains ',', which agent options cannot carry");
        }
    }

    /**
     * Whether the account is elevated: TRUE/FALSE on Windows (the token's integrity level) and on Linux (the effective
     * uid is 0, what kernel= needs there), FALSE elsewhere, null when unknown.
     */
    public static Boolean currentElevation() {
        return Elevation.current(dev.jetw.etw.EtwBackends.isWindows());
    }

    /** The trace of the file-trace step. */
    public Path traceFile() {
        return file(FILE_TRACE);
    }

    public List<StepResult> runAll() {
        return Arrays.asList(fileTrace(), callerTime(), orphanFail(), orphanReuse(), orphanRestart(), buffering(), dump(),
                foreignEnable(), kernel(), tracerpt(), ffm(), notElevated());
    }

    /** A file-mode session with the agent's options, several writer threads, everything read back exactly. */
    public StepResult fileTrace() {
        return guarded(FILE_TRACE, () -> {
            TracedRun run = trace(config(FILE_TRACE, ""), THREADS, CALLS, false);
            fileTraceRun = run;
            return run.judge(FILE_TRACE, file(FILE_TRACE), "session " + run.config.sessionName() + ": ");
        });
    }

    /** Caller-set time stamps (writeAt): events written in reverse time order come back in stamp order, 1 ms apart. */
    public StepResult callerTime() {
        return guarded(CALLER_TIME, () -> {
            TracedRun run = trace(config(CALLER_TIME, ""), false, CallerTimeWorkload::write);
            StepResult exact = run.judge(CALLER_TIME, file(CALLER_TIME), "");
            List<String> facts = new ArrayList<>(exact.details());
            List<String> problems = new ArrayList<>();
            if (exact.verdict() == StepResult.Verdict.FAIL) {
                problems.add(exact.summary());
            }
            problems.addAll(CallerTimeWorkload.spacing(file(CALLER_TIME), facts));
            return StepResult.judge(CALLER_TIME, CallerTimeWorkload.EVENTS + " events written newest first with caller-set"
                    + " time stamps 1 ms apart come back in stamp order, 1 ms apart", facts, problems);
        });
    }

    /** orphan=fail against a leftover session of the same name: refused with ERROR_ALREADY_EXISTS, the leftover untouched. */
    public StepResult orphanFail() {
        return guarded(ORPHAN_FAIL, () -> {
            SessionConfig leftover = leftover(ORPHAN_FAIL);
            List<String> facts = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            try {
                SessionController.start(backend, config(ORPHAN_FAIL, ",orphan=fail,file=" + file(ORPHAN_FAIL + "-second"))).stop();
                problems.add("a second session named " + leftover.sessionName() + " started although orphan=fail");
            } catch (EtwException e) {
                facts.add("second start: " + e.getMessage());
                if (e.code() != Win32Error.ALREADY_EXISTS) {
                    problems.add("the second start failed with " + e.codeName() + " (" + e.code() + "), expected ERROR_ALREADY_EXISTS (183)");
                }
            }
            SessionStats still = backend.querySession(leftover.sessionName());
            facts.add("the leftover session still runs: " + still);
            backend.stopSession(leftover.sessionName());
            return StepResult.judge(ORPHAN_FAIL, "a second start of running session " + leftover.sessionName()
                    + " is refused with ERROR_ALREADY_EXISTS (183)", facts, problems);
        });
    }

    /** orphan=reuse: jetw logs into the leftover session, so its events land in the leftover's file. */
    public StepResult orphanReuse() {
        return guarded(ORPHAN_REUSE, () -> {
            SessionConfig leftover = leftover(ORPHAN_REUSE);
            TracedRun run = trace(config(ORPHAN_REUSE, ",orphan=reuse,file=" + file(ORPHAN_REUSE + "-unused")),
                    SMALL_THREADS, SMALL_CALLS, false);
            return run.judge(ORPHAN_REUSE, leftover.logFile(), "logged into the running session " + leftover.sessionName() + ": ");
        });
    }

    /** orphan=restart: the leftover is stopped and a new session writes the new file. */
    public StepResult orphanRestart() {
        return guarded(ORPHAN_RESTART, () -> {
            SessionConfig leftover = leftover(ORPHAN_RESTART);
            TracedRun run = trace(config(ORPHAN_RESTART, ",orphan=restart,file=" + file(ORPHAN_RESTART + "-new")),
                    SMALL_THREADS, SMALL_CALLS, false);
            StepResult result = run.judge(ORPHAN_RESTART, file(ORPHAN_RESTART + "-new"),
                    "restarted session " + leftover.sessionName() + " over the leftover: ");
            // The leftover's file was closed by the restart: it must be a readable, empty trace.
            return withNoJetwEventsIn(leftover.logFile(), "the leftover's file", result, result.summary());
        });
    }

    /** mode=buffering: events stay in the in-memory ring until a flush writes them to the file. */
    public StepResult buffering() {
        return guarded(BUFFERING, () -> {
            TracedRun run = trace(config(BUFFERING, ",mode=buffering"), SMALL_THREADS, SMALL_CALLS, true);
            return run.judge(BUFFERING, file(BUFFERING), "ring flushed to the file: ");
        });
    }

    /**
     * {@code jetw dump} of an in-memory ring while tracing goes on, with kernel flags where the machine
     * allows them (a system logger's ring: a dump must not end its kernel providers): the dump holds
     * jetw's events exactly and, with kernel flags, kernel thread and context-switch records naming the
     * writer threads.
     */
    public StepResult dump() {
        return guarded(DUMP, () -> {
            String why = kernelUnavailable();
            String kernel = why == null ? ",kernel=process,thread,cswitch" : "";
            SessionConfig cfg = config(DUMP, ",mode=buffering" + kernel + ",file=" + file(DUMP + "-ring"));
            Path dumped = file(DUMP);
            TracedRun run = trace(cfg, false, (provider, ids) -> {
                List<WrittenThread> written = CallWorkload.write(provider, ids, SMALL_THREADS, SMALL_CALLS);
                backend.dumpSession(cfg.sessionName(), dumped);
                return written;
            });
            StepResult jetw = run.judge(DUMP, dumped, "");
            List<String> facts = new ArrayList<>(jetw.details());
            List<String> problems = new ArrayList<>();
            if (jetw.verdict() == StepResult.Verdict.FAIL) {
                problems.add(jetw.summary());
            }
            if (why == null) {
                kernelRecords(dumped, run, facts, problems);
            } else {
                facts.add("without kernel flags: " + why);
            }
            return StepResult.judge(DUMP, "the ring dumped while tracing went on holds the " + run.expected() + " events"
                    + (why == null ? " and kernel records of their " + run.written.size() + " threads" : " (no kernel flags: " + why + ")"),
                    facts, problems);
        });
    }

    /**
     * Another session enables jetw's control GUID while jetw traces (WPR, logman, a second JVM), then
     * disables it: every event still goes to jetw's own session, none to the other one (issue 30).
     * The other session is controlled through a second backend, as another process would.
     */
    public StepResult foreignEnable() {
        return guarded(FOREIGN_ENABLE, () -> {
            EtwBackend other = dev.jetw.etw.EtwBackends.create(backend.name());
            SessionConfig foreign = config(FOREIGN_ENABLE + "-other", "");
            other.startSession(foreign);
            try {
                TracedRun run = trace(config(FOREIGN_ENABLE, ""), false, (provider, ids) -> {
                    int level = AgentSessionOptions.parse("").enableLevel();
                    other.enableProvider(foreign.sessionName(), JetwSchema.CONTROL_GUID, level, 0);
                    List<WrittenThread> written = new ArrayList<>(CallWorkload.write(provider, ids, SMALL_THREADS, SMALL_CALLS));
                    other.disableProvider(foreign.sessionName(), JetwSchema.CONTROL_GUID);
                    written.addAll(CallWorkload.write(provider, ids, SMALL_THREADS, SMALL_CALLS));
                    return written;
                });
                StepResult own = run.judge(FOREIGN_ENABLE, file(FOREIGN_ENABLE), "");
                other.stopSession(foreign.sessionName());
                return withNoJetwEventsIn(foreign.logFile(), "the other session's file", own, "another session enabled and"
                        + " disabled jetw's provider: all " + run.expected() + " events in jetw's own session, none in the other");
            } finally {
                try {
                    other.stopSession(foreign.sessionName());
                } catch (EtwException | RuntimeException ignored) {
                    // stopped above
                }
            }
        });
    }

    /**
     * The per-event calls through FFM downcalls (Java 22+; docs/windows-binding.md): the backend took
     * the FFM crossing, and a trace written through it reads back exactly.
     */
    public StepResult ffm() {
        if (!(backend instanceof dev.jetw.etw.windows.WindowsBackend)) {
            return StepResult.skip(FFM, "the FFM crossing is the Windows binding's (backend " + backend.name() + ")");
        }
        int java = javaFeature();
        if (java < 22) {
            return StepResult.skip(FFM, "FFM downcalls need Java 22 or later (this is Java " + java
                    + "): the per-event calls use JNA direct mapping");
        }
        String crossing = ((dev.jetw.etw.windows.WindowsBackend) backend).perEventCrossing();
        if (!"ffm".equals(crossing) && java < 24) {
            return StepResult.skip(FFM, "Java " + java + " takes FFM only with --enable-native-access=ALL-UNNAMED"
                    + " (so that jetw adds no warning); this JVM crosses with " + crossing);
        }
        return guarded(FFM, () -> {
            if (!"ffm".equals(crossing)) {
                List<String> facts = new ArrayList<>();
                facts.add("per-event crossing: " + crossing);
                return StepResult.fail(FFM, "Java " + java + " should cross through FFM, this JVM uses " + crossing
                        + " (see the 'FFM downcalls unavailable' line on stderr)", facts);
            }
            TracedRun run = trace(config(FFM, ""), SMALL_THREADS, SMALL_CALLS, false);
            return run.judge(FFM, file(FFM), "per-event calls through FFM downcalls (Java " + java + "): ");
        });
    }

    /** {@code result} (same step), and {@code other} must be a readable trace with no jetw event. */
    private StepResult withNoJetwEventsIn(Path other, String whose, StepResult result, String summary) throws IOException {
        TraceCheck check = TraceCheck.compare(other, new ArrayList<WrittenThread>(), processId, 0, Long.MAX_VALUE / 2);
        List<String> facts = new ArrayList<>(result.details());
        facts.addAll(check.facts);
        List<String> problems = new ArrayList<>();
        if (result.verdict() == StepResult.Verdict.FAIL) {
            problems.add(result.summary());
        }
        for (String p : check.problems) {
            problems.add(whose + " " + other + ": " + p);
        }
        return StepResult.judge(result.step(), summary, facts, problems);
    }

    /** The feature version of the running Java (8 for "1.8"). */
    static int javaFeature() {
        return dev.jetw.etw.JavaFeature.current();
    }

    /** Kernel thread and context-switch records of {@code etl} name each writer thread of {@code run}, in this process. */
    private void kernelRecords(Path etl, TracedRun run, List<String> facts, List<String> problems) throws IOException {
        KernelThreads k = KernelThreads.read(etl);
        facts.add(k.kernelRecords + " kernel records, " + k.threadRecords + " thread start/end/rundown, " + k.cswitchRecords + " context switches");
        for (WrittenThread w : run.written) {
            Integer pid = k.processOfThread.get(w.threadId);
            if (pid == null) {
                problems.add("no kernel thread record names jetw's writer thread " + w.threadId);
            } else if (pid != processId) {
                problems.add("the kernel puts thread " + w.threadId + " in process " + pid + ", jetw's events in " + processId);
            }
            if (!k.switchedIn.contains(w.threadId)) {
                problems.add("no context switch to jetw's writer thread " + w.threadId);
            }
        }
    }

    /** A system-logger session with process, thread and cswitch flags: kernel thread records name jetw's threads. */
    public StepResult kernel() {
        String why = kernelUnavailable();
        if (why != null) {
            return StepResult.skip(KERNEL, why);
        }
        return guarded(KERNEL, () -> {
            TracedRun run = trace(config(KERNEL, ",kernel=process,thread,cswitch"), SMALL_THREADS, SMALL_CALLS, false);
            StepResult jetw = run.judge(KERNEL, file(KERNEL), "");
            List<String> facts = new ArrayList<>(jetw.details());
            List<String> problems = new ArrayList<>();
            if (jetw.verdict() == StepResult.Verdict.FAIL) {
                problems.add(jetw.summary());
            }
            kernelRecords(file(KERNEL), run, facts, problems);
            return StepResult.judge(KERNEL, "kernel thread and context-switch records name the " + run.written.size()
                    + " threads of jetw's events, in process " + processId, facts, problems);
        });
    }

    /** tracerpt decodes the file-trace step's events by their MOF names after mofcomp of {@code jetw mof}. */
    public StepResult tracerpt() {
        if (!"windows".equals(backend.name())) {
            return StepResult.skip(TRACERPT, "tracerpt and mofcomp are Windows tools (backend " + backend.name() + ")");
        }
        if (!Boolean.TRUE.equals(elevated)) {
            return StepResult.skip(TRACERPT, "mofcomp publishes into root\\wmi, which needs an elevated administrator");
        }
        if (fileTraceRun == null || !fileTraceRun.problems.isEmpty()) {
            return StepResult.skip(TRACERPT, "needs a trace from a passing " + FILE_TRACE + " step");
        }
        return guarded(TRACERPT, () -> {
            List<String> facts = new ArrayList<>();
            String xml = TracerptCheck.render(file(FILE_TRACE), dir, facts);
            int ends = 0;
            int all = 0;
            for (WrittenThread w : fileTraceRun.written) {
                for (ExpectedEvent e : w.events) {
                    all++;
                    ends += e.type == EventType.END ? 1 : 0;
                }
            }
            List<String> problems = TracerptCheck.judge(xml, all, ends, facts);
            return StepResult.judge(TRACERPT, "tracerpt decodes the " + all + " MethodCall events by name (MethodId, ExceptionClass)",
                    facts, problems);
        });
    }

    /** Without elevation, a kernel session is refused with ERROR_ACCESS_DENIED and a message that says what to do. */
    public StepResult notElevated() {
        if (!"windows".equals(backend.name())) {
            return StepResult.skip(NOT_ELEVATED, "the " + backend.name() + " backend has no privileges to lack");
        }
        if (elevated == null) {
            return StepResult.skip(NOT_ELEVATED, "could not tell whether this account is elevated (whoami /groups)");
        }
        if (elevated) {
            return StepResult.skip(NOT_ELEVATED, "this account is elevated: the access-denied path cannot be shown");
        }
        return guarded(NOT_ELEVATED, () -> {
            SessionConfig cfg = config(NOT_ELEVATED, ",kernel=process,thread");
            try {
                backend.startSession(cfg);
                backend.stopSession(cfg.sessionName());
                return StepResult.fail(NOT_ELEVATED, "a kernel session started without elevation", new ArrayList<String>());
            } catch (EtwException e) {
                List<String> facts = new ArrayList<>();
                facts.add(e.getMessage());
                List<String> problems = new ArrayList<>();
                if (e.code() != Win32Error.ACCESS_DENIED) {
                    problems.add("refused with " + e.codeName() + " (" + e.code() + "), expected ERROR_ACCESS_DENIED (5)");
                }
                return StepResult.judge(NOT_ELEVATED, "a kernel session is refused with ERROR_ACCESS_DENIED (5): " + e.getMessage(),
                        facts, problems);
            }
        });
    }

    /** Why the kernel step cannot run here, or null. */
    private String kernelUnavailable() {
        if (!"windows".equals(backend.name())) {
            return "the " + backend.name() + " backend records no Windows kernel events (on Linux it collects kernel="
                    + " through tracefs, proved by its own tests: docs/linux-kernel-events.md)";
        }
        if (!WindowsVersion.current().hasSystemLoggerMode()) {
            return "system-logger sessions need Windows 8 or later (this is " + WindowsVersion.current() + ")";
        }
        if (!Boolean.TRUE.equals(elevated)) {
            return "kernel flags need an elevated administrator" + (elevated == null ? " (could not tell whether this account is)" : "");
        }
        return null;
    }

    /**
     * The session the agent would start for {@code name=jetw-selftest-<pid>-<step>,file=<dir>/<step>.etl<extra>};
     * an {@code extra} naming its own {@code file=} replaces the default (a key may be given once).
     */
    private AgentSessionOptions options(String step, String extra) {
        String file = extra.contains(",file=") ? "" : ",file=" + file(step);
        return AgentSessionOptions.parse("name=" + sessionName(step) + file + extra);
    }

    private SessionConfig config(String step, String extra) {
        return options(step, extra).session();
    }

    String sessionName(String step) {
        return "jetw-selftest-" + processId + "-" + step;
    }

    Path file(String step) {
        return dir.resolve(step + ".etl");
    }

    /** A session left running, as a killed process leaves it: started, never stopped, no provider. */
    private SessionConfig leftover(String step) throws EtwException {
        SessionConfig cfg = config(step, "");
        backend.startSession(cfg);
        return cfg;
    }

    /** Start (with the config's orphan policy), register, enable, write from threads, optionally flush, stop. */
    private TracedRun trace(SessionConfig cfg, int threads, int calls, boolean flushBeforeStop) throws Exception {
        return trace(cfg, flushBeforeStop, (provider, ids) -> CallWorkload.write(provider, ids, threads, calls));
    }

    private TracedRun trace(SessionConfig cfg, boolean flushBeforeStop, Workload workload) throws Exception {
        int enableLevel = AgentSessionOptions.parse("").enableLevel();
        TracedRun run = new TracedRun(cfg);
        SessionController session = SessionController.start(backend, cfg);
        try {
            run.facts.add("started: " + session.lastStats());
            ClassicProvider provider = ClassicProvider.register(backend, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
            try {
                backend.enableProvider(cfg.sessionName(), JetwSchema.CONTROL_GUID, enableLevel, 0);
                awaitEnabled(provider, enableLevel);
                run.startMillis = System.currentTimeMillis();
                run.written = workload.write(provider, threadIds);
                if (flushBeforeStop) {
                    run.facts.add("flushed: " + session.flush());
                }
                backend.disableProvider(cfg.sessionName(), JetwSchema.CONTROL_GUID);
                run.stopped = session.stop();
                run.endMillis = System.currentTimeMillis();
                run.facts.add("stopped: " + run.stopped);
            } finally {
                run.written(provider);
                provider.close();
            }
        } finally {
            if (!session.isStopped()) {
                stopQuietly(session);
            }
        }
        return run;
    }

    private static void awaitEnabled(ClassicProvider provider, int level) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ENABLE_WAIT_MILLIS);
        while (!provider.isEnabled(level)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the provider's control callback did not report the enable request"
                        + " within " + ENABLE_WAIT_MILLIS + " ms of EnableTrace's success");
            }
            Thread.sleep(10);
        }
    }

    private static void stopQuietly(SessionController session) {
        try {
            session.stop();
        } catch (EtwException | RuntimeException ignored) {
            // the step already fails with the first error
        }
    }

    /** Runs a step; anything thrown is the step's failure, and sessions it left are stopped. */
    private StepResult guarded(String step, Step body) {
        try {
            return body.run();
        } catch (Exception | LinkageError e) {
            List<String> details = new ArrayList<>();
            details.add(e.toString());
            for (StackTraceElement frame : e.getStackTrace()) {
                details.add("    at " + frame);
            }
            return StepResult.fail(step, e instanceof EtwException ? e.getMessage() : e.toString(), details);
        } finally {
            try {
                backend.stopSession(sessionName(step));
            } catch (EtwException | RuntimeException ignored) {
                // not running: the usual case
            }
        }
    }

    private interface Step {
        StepResult run() throws Exception;
    }

    /** Writes through the provider and returns what each thread wrote. */
    private interface Workload {
        List<WrittenThread> write(ClassicProvider provider, ThreadIds ids) throws Exception;
    }

    private static int currentProcessId() {
        String name = ManagementFactory.getRuntimeMXBean().getName();
        int at = name.indexOf('@');
        return Integer.parseInt(at > 0 ? name.substring(0, at) : name);
    }

    /** One traced session: what was written, the statistics, and the comparison with the file. */
    private final class TracedRun {
        final SessionConfig config;
        final List<String> facts = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        List<WrittenThread> written = new ArrayList<>();
        SessionStats stopped;
        long startMillis;
        long endMillis;
        long providerWritten;
        long providerDropped;

        TracedRun(SessionConfig config) {
            this.config = config;
        }

        void written(ClassicProvider provider) {
            providerWritten = provider.eventsWritten();
            providerDropped = provider.eventsDropped();
        }

        int expected() {
            int n = 0;
            for (WrittenThread w : written) {
                n += w.events.size();
            }
            return n;
        }

        /** Compares the file with what was written, plus the counts the user sees. */
        StepResult judge(String step, Path etl, String summaryPrefix) throws IOException {
            int expected = expected();
            if (providerDropped != 0) {
                problems.add(providerDropped + " events dropped by the backend (every write must be accepted)");
            }
            if (providerWritten != expected) {
                problems.add("the provider counts " + providerWritten + " events written, the writers " + expected);
            }
            if (stopped != null && stopped.eventsLost() != 0) {
                problems.add("the session lost " + stopped.eventsLost() + " events");
            }
            TraceCheck check = TraceCheck.compare(etl, written, processId, startMillis, endMillis);
            problems.addAll(check.problems);
            facts.addAll(check.facts);
            return StepResult.judge(step, summaryPrefix + expected + " events from " + written.size()
                    + " threads read back exactly (types, levels, ids, process/thread ids, time order)", facts, problems);
        }
    }
}
