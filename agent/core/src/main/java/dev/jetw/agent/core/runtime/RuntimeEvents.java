package dev.jetw.agent.core.runtime;

import dev.jetw.etw.ClassicProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Brings up the runtime event source for the selected families ({@code jvm=}). On Java 17+ it is
 * JFR streaming, in the optional part agent/jfr (class-file version 61, loaded by name from the
 * agent's own class loader only here, so a Java 8 JVM never sees it); elsewhere, or when JFR will
 * not start, the {@code gc} family comes from the GC MXBean notifications and the other families
 * are not available. Either way method tracing goes on; {@link #problem} is the one line saying
 * what is missing. Design: docs/agent-dist.md, families per Java version: docs/jvm-events.md.
 */
public final class RuntimeEvents {

    static final String JFR_SOURCE = "dev.jetw.agent.jfr.JfrEventSource";
    static final int JFR_MIN_JAVA = 17;

    final RuntimeEventWriter writer;
    private final Set<String> families;
    private RuntimeEventSource source;
    private String problem;

    private RuntimeEvents(ClassicProvider provider, Set<String> families) {
        this.families = families;
        this.writer = new RuntimeEventWriter(provider, families);
    }

    public static RuntimeEvents start(ClassicProvider provider, Set<String> families, long thresholdNanos) {
        RuntimeEvents r = new RuntimeEvents(provider, families);
        if (families.isEmpty()) {
            return r;
        }
        if (javaFeatureVersion() < JFR_MIN_JAVA) {
            r.startSource(thresholdNanos); // the GC notifications: a few milliseconds, on the caller's thread
            return r;
        }
        // JFR's start takes a few hundred milliseconds (its classes, its repository, the retransformation of the
        // JDK's I/O classes): never on the application's thread, which premain would otherwise hold (issue 31).
        r.starting = true;
        r.startedAtNanos = System.nanoTime();
        Thread t = dev.jetw.etw.JetwThreads.register(new Thread(() -> r.startInBackground(thresholdNanos), STARTER_THREAD));
        t.setDaemon(true);
        r.starter = t;
        starterHook.accept(t);
        t.start();
        return r;
    }

    /** The daemon thread that starts JFR's stream after premain returns. */
    public static final String STARTER_THREAD = "jetw-jfr-start";
    /**
     * Set to "true" once JFR's stream records (a program that needs its first milliseconds' runtime events, e.g. a
     * test, can wait for it); "failed" when it will not.
     */
    public static final String RUNNING_PROPERTY = "jetw.jvm.events.running";
    /** Tests: sees the starter thread before it starts (a seam to slow JFR's start down). */
    static volatile java.util.function.Consumer<Thread> starterHook = t -> { };
    /** Tests: runs on the starter thread before JFR's start (a seam to slow JFR's start down). */
    static volatile Runnable beforeJfrStart = () -> { };

    private final Object lock = new Object();
    private boolean starting;
    private boolean stopped;
    private long startedAtNanos;
    /** Milliseconds from the agent's start to the stream's recording, or -1 until then. */
    private volatile long runningAfterMillis = -1;
    private Thread starter;

    private void startInBackground(long thresholdNanos) {
        beforeJfrStart.run();
        synchronized (lock) {
            if (stopped) {
                // The agent stopped (a short program's exit) before this thread got to JFR: starting it now would
                // race with the JVM's death, after which HotSpot refuses JFR and logs three error lines on the
                // application's stdout ("An attempt was made to start JFR too early ..." : JVMTI is no longer live).
                starting = false;
                System.setProperty(RUNNING_PROPERTY, "failed");
                lock.notifyAll();
                return;
            }
        }
        startSource(thresholdNanos);
        RuntimeEventSource late = null;
        String problemLine;
        synchronized (lock) {
            starting = false;
            problemLine = problem;
            if (stopped) {
                late = source; // the agent stopped while JFR was starting: nothing is delivered
                source = null;
            } else if (source != null) {
                runningAfterMillis = (System.nanoTime() - startedAtNanos) / 1_000_000;
            }
            System.setProperty(RUNNING_PROPERTY, source != null && problemLine == null ? "true" : "failed");
            lock.notifyAll();
        }
        if (late != null) {
            late.stop();
        }
        if (problemLine != null) {
            System.err.println(problemLine); // in the start line before issue 31; that line no longer waits for JFR
        }
    }

    /** Tests: waits until the background start has ended (true) or the time is up (false). */
    boolean awaitStarted(long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        synchronized (lock) {
            while (starting) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                lock.wait(left);
            }
        }
        return true;
    }

    private void startSource(long thresholdNanos) {
        int java = javaFeatureVersion();
        String why;
        if (java >= JFR_MIN_JAVA) {
            try {
                RuntimeEventSource jfr = (RuntimeEventSource) Class.forName(JFR_SOURCE, true, RuntimeEvents.class.getClassLoader())
                        .getConstructor(RuntimeEventWriter.class, long.class).newInstance(writer, thresholdNanos);
                jfr.start();
                synchronized (lock) {
                    source = jfr;
                }
                return;
            } catch (Throwable t) { // JFR disabled (-XX:-FlightRecorder), jdk.jfr not in the runtime image, ...
                Throwable cause = t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null ? t.getCause() : t;
                why = "JFR streaming failed (" + oneLine(cause) + ")";
            }
        } else {
            why = "JFR streaming needs Java " + JFR_MIN_JAVA + "+, this is Java " + java;
        }
        List<String> missing = new ArrayList<>(families);
        if (families.contains("gc")) {
            try {
                GcNotificationSource gc = new GcNotificationSource(writer);
                gc.start();
                synchronized (lock) {
                    source = gc;
                }
                missing.remove("gc");
            } catch (RuntimeException | Error e) {
                why += "; GC notifications failed (" + oneLine(e) + ")";
            }
        }
        problem = "jetw: jvm=" + String.join(",", families) + ": " + why + "; "
                + (source != null ? "gc events come from the GC MXBeans, " : "")
                + (missing.isEmpty() ? "" : "no " + String.join(", ", missing) + " events, ") + "method tracing goes on";
    }

    /** "gc, safepoint (JFR)", "gc (GC notifications)" or "none"; while JFR starts, the selected families. */
    public String describe() {
        RuntimeEventSource s;
        synchronized (lock) {
            if (starting) {
                return String.join(",", families) + " (JFR)";
            }
            s = source;
        }
        if (s == null) {
            return "none";
        }
        return s.families() + (s instanceof GcNotificationSource ? " (GC notifications)" : " (JFR)");
    }

    /**
     * For the start line, read at one instant: the families and source ({@link #describe}), ", starting on a
     * background thread" while JFR's stream still starts, and on a line of its own what failed, if anything.
     */
    public String startLine() {
        synchronized (lock) {
            return describe() + (starter != null && starting ? ", starting on a background thread (events before it records are not seen)" : "")
                    + (problem == null ? "" : "\n" + problem);
        }
    }

    /** For status: the families and source, what the source's thread allocated, and the events of jetw's threads left out. */
    public String status() {
        RuntimeEventSource s;
        boolean pending;
        String p;
        synchronized (lock) {
            s = source;
            pending = starting;
            p = problem;
        }
        long bytes = s == null ? -1 : s.allocatedBytes();
        long after = runningAfterMillis;
        return describe() + (pending ? ", JFR still starting" : "")
                + (after >= 0 ? ", recording since " + after + " ms after the agent started" : "")
                + (bytes < 0 ? "" : ", consumer thread allocated " + bytes + " bytes")
                + (s == null ? "" : ", " + writer.ownThreadEvents() + " events of jetw's own threads left out")
                + (p == null || starter == null ? "" : "; " + p);
    }

    /** The one line saying what JFR could not deliver, or null (while JFR starts in the background: null). */
    public String problem() {
        synchronized (lock) {
            return problem;
        }
    }

    /**
     * Delivers what the source still holds, stops it, and stops writing. Never waits for a JFR start still under
     * way (a short program would pay JFR's whole start at its exit). Returns, for the summary line, the note that no
     * runtime events were recorded because of that, or null (status says from when on they were).
     */
    public String stop() {
        return stop(false);
    }

    /**
     * {@link #stop()}; {@code atExit}: from the shutdown hook, where JFR's own hook ends its recording at the same
     * time ({@link RuntimeEventSource#stopAtExit}). The source's report of that stop is then {@link #stopReport()};
     * when it gave events up, that report is also the returned note.
     */
    public String stop(boolean atExit) {
        RuntimeEventSource s;
        String note = null;
        synchronized (lock) {
            stopped = true;
            s = source;
            source = null;
            if (starting) {
                note = "no JVM runtime events: the agent stopped before JFR's stream had started";
            }
        }
        if (s != null && atExit) {
            ExitStopReport report = s.stopAtExit();
            stopReport = report;
            if (report != null && !report.complete) {
                note = "jvm events: " + report.line;
            }
        } else if (s != null) {
            s.stop();
        }
        writer.close();
        return note;
    }

    private volatile ExitStopReport stopReport;

    /** What the stop at exit waited for, from the source (null before it, or when the source had nothing to say). */
    public ExitStopReport stopReport() {
        return stopReport;
    }

    /** The running Java's feature version; 8 (the oldest the agent runs on) when it cannot be read. */
    static int javaFeatureVersion() {
        int feature = dev.jetw.etw.JavaFeature.current();
        return feature == 0 ? 8 : feature;
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return (t.getClass().getSimpleName() + (m == null ? "" : ": " + m)).replace('\n', ' ');
    }
}
