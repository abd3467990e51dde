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
        if (!families.isEmpty()) {
            r.startSource(thresholdNanos);
        }
        return r;
    }

    private void startSource(long thresholdNanos) {
        int java = javaFeatureVersion();
        String why;
        if (java >= JFR_MIN_JAVA) {
            try {
                RuntimeEventSource jfr = (RuntimeEventSource) Class.forName(JFR_SOURCE, true, RuntimeEvents.class.getClassLoader())
                        .getConstructor(RuntimeEventWriter.class, long.class).newInstance(writer, thresholdNanos);
                jfr.start();
                source = jfr;
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
                source = gc;
                missing.remove("gc");
            } catch (RuntimeException | Error e) {
                why += "; GC notifications failed (" + oneLine(e) + ")";
            }
        }
        problem = "jetw: jvm=" + String.join(",", families) + ": " + why + "; "
                + (source != null ? "gc events come from the GC MXBeans, " : "")
                + (missing.isEmpty() ? "" : "no " + String.join(", ", missing) + " events, ") + "method tracing goes on";
    }

    /** "gc, safepoint (JFR)", "gc (GC notifications)" or "none". */
    public String describe() {
        if (source == null) {
            return "none";
        }
        return source.families() + (source instanceof GcNotificationSource ? " (GC notifications)" : " (JFR)");
    }

    /** For status: the families and source, and what the source's thread allocated. */
    public String status() {
        RuntimeEventSource s = source;
        long bytes = s == null ? -1 : s.allocatedBytes();
        return describe() + (bytes < 0 ? "" : ", consumer thread allocated " + bytes + " bytes");
    }

    /** The one line saying what JFR could not deliver, or null. */
    public String problem() {
        return problem;
    }

    /** Delivers what the source still holds, stops it, and stops writing. */
    public void stop() {
        RuntimeEventSource s = source;
        source = null;
        if (s != null) {
            s.stop();
        }
        writer.close();
    }

    static int javaFeatureVersion() {
        String v = System.getProperty("java.specification.version", "1.8");
        try {
            return v.startsWith("1.") ? Integer.parseInt(v.substring(2)) : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            return 8;
        }
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return (t.getClass().getSimpleName() + (m == null ? "" : ": " + m)).replace('\n', ' ');
    }
}
