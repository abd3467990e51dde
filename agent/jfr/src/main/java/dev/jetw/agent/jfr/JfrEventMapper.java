package dev.jetw.agent.jfr;

import dev.jetw.agent.core.runtime.RuntimeEventWriter;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns JFR events into jetw runtime events (JvmEventSchema) on JFR's stream thread. Times go
 * through {@link JfrClock}; the subject thread is the event's thread (or the thread a field names),
 * with its OS and Java thread ids. A safepoint is assembled from its begin, VM operation and end
 * events by safepoint id; everything else maps one to one. This thread may
 * allocate (JFR's accessors do); it never runs on an application thread.
 */
final class JfrEventMapper {

    /** Safepoints begun and not yet ended; bounded in case an end never arrives. */
    private static final int MAX_OPEN_SAFEPOINTS = 64;

    private final RuntimeEventWriter w;
    private final long thresholdNanos;
    private final JfrClock clock = new JfrClock();
    private final Map<Long, OpenSafepoint> safepoints = new LinkedHashMap<>();

    private static final class OpenSafepoint {
        long start;
        long timeToSafepoint;
        String operation = "";
        RecordedThread caller;
    }

    JfrEventMapper(RuntimeEventWriter writer, long thresholdNanos) {
        this.w = writer;
        this.thresholdNanos = thresholdNanos;
    }

    void onFlush() {
        clock.calibrate();
    }

    void accept(RecordedEvent e) {
        try {
            map(e);
        } catch (RuntimeException ex) {
            w.failed(ex); // one odd event (a field missing in this JDK) never stops the stream
        }
    }

    private void map(RecordedEvent e) {
        long start = time(e.getStartTime());
        long end = time(e.getEndTime());
        RecordedThread t = e.getThread();
        switch (e.getEventType().getName()) {
            case "jdk.GarbageCollection":
                w.gc(start, end, e.getInt("gcId"), e.getString("name"), e.getString("cause"),
                        e.getDuration("longestPause").toNanos(), e.getDuration("sumOfPauses").toNanos());
                break;
            case "jdk.GCHeapSummary":
                w.gcHeap(start, e.getInt("gcId"), "After GC".equals(e.getString("when")), e.getLong("heapUsed"));
                break;
            case "jdk.GCPhasePause":
                w.gcPause(start, end, e.getInt("gcId"), e.getString("name"));
                break;
            case "jdk.SafepointBegin":
                // Its duration is the synchronization (it ends after jdk.SafepointStateSynchronization, so
                // in end-time order it comes after it): the time to safepoint.
                safepointBegin(e.getLong("safepointId"), start, end - start);
                break;
            case "jdk.ExecuteVMOperation": {
                OpenSafepoint s = e.getBoolean("safepoint") && e.hasField("safepointId")
                        ? safepoints.get(e.getLong("safepointId")) : null;
                if (s != null) {
                    s.operation = e.getString("operation");
                    s.caller = e.getThread("caller");
                }
                break;
            }
            case "jdk.SafepointEnd": {
                OpenSafepoint s = safepoints.remove(e.getLong("safepointId"));
                if (s != null && end - s.start >= thresholdNanos) {
                    w.safepoint(s.start, end, os(s.caller), java(s.caller), e.getLong("safepointId"), s.timeToSafepoint, s.operation);
                }
                break;
            }
            case "jdk.JavaMonitorEnter": {
                RecordedThread owner = e.getThread("previousOwner");
                w.contention(start, end, os(t), java(t), 0, os(owner), java(owner), className(e.getClass("monitorClass")));
                break;
            }
            case "jdk.JavaMonitorWait": {
                RecordedThread notifier = e.getThread("notifier");
                w.contention(start, end, os(t), java(t), 1, os(notifier), java(notifier), className(e.getClass("monitorClass")));
                break;
            }
            case "jdk.ThreadPark": {
                long timeout = e.getLong("timeout");
                w.park(start, end, os(t), java(t), timeout < 0 ? -1 : timeout, className(e.getClass("parkedClass")));
                break;
            }
            case "jdk.Compilation":
                w.compilation(start, end, os(t), java(t), (int) e.getLong("compileId"), (int) e.getLong("compileLevel"),
                        e.getBoolean("isOsr"), method(e.getValue("method")), e.getBoolean("succeded"),
                        (int) e.getLong("codeSize"), (int) e.getLong("inlinedBytes"));
                break;
            case "jdk.Deoptimization":
                w.deoptimization(start, os(t), java(t), (int) e.getLong("compileId"), method(e.getValue("method")), e.getString("reason"));
                break;
            case "jdk.ClassLoad":
                w.classLoad(start, end, os(t), java(t), className(e.getClass("loadedClass")), loader(e.getValue("definingClassLoader")));
                break;
            case "jdk.ClassUnload":
                w.classUnload(start, os(t), java(t), className(e.getClass("unloadedClass")), loader(e.getValue("definingClassLoader")));
                break;
            case "jdk.JavaExceptionThrow": {
                String thrown = className(e.getClass("thrownClass"));
                w.exception(start, os(t), java(t), thrown, thrower(e.getStackTrace(), thrown), e.getString("message"));
                break;
            }
            case "jdk.ThreadStart":
            case "jdk.ThreadEnd": {
                RecordedThread subject = e.getThread("thread");
                w.thread(start, e.getEventType().getName().equals("jdk.ThreadStart"), os(subject), java(subject), false, name(subject));
                break;
            }
            case "jdk.VirtualThreadStart":
            case "jdk.VirtualThreadEnd":
                w.thread(start, e.getEventType().getName().equals("jdk.VirtualThreadStart"), os(t),
                        e.hasField("javaThreadId") ? e.getLong("javaThreadId") : java(t), true, name(t));
                break;
            case "jdk.FileRead":
                w.io(start, end, os(t), java(t), 0, e.getString("path"), e.getLong("bytesRead"));
                break;
            case "jdk.FileWrite":
                w.io(start, end, os(t), java(t), 1, e.getString("path"), e.getLong("bytesWritten"));
                break;
            case "jdk.SocketRead":
                w.io(start, end, os(t), java(t), 2, e.getString("host") + ":" + e.getInt("port"), e.getLong("bytesRead"));
                break;
            case "jdk.SocketWrite":
                w.io(start, end, os(t), java(t), 3, e.getString("host") + ":" + e.getInt("port"), e.getLong("bytesWritten"));
                break;
            default:
                break;
        }
    }

    private void safepointBegin(long id, long start, long timeToSafepoint) {
        if (safepoints.size() >= MAX_OPEN_SAFEPOINTS) {
            Iterator<Long> oldest = safepoints.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        OpenSafepoint s = new OpenSafepoint();
        s.start = start;
        s.timeToSafepoint = timeToSafepoint;
        safepoints.put(id, s);
    }

    private long time(Instant t) {
        return clock.nanoTime(t);
    }

    /** OS thread id, 0 when unknown (JFR gives -1 or 0 for a virtual thread or a thread without one). */
    static long os(RecordedThread t) {
        return t == null ? 0 : Math.max(0, t.getOSThreadId());
    }

    static long java(RecordedThread t) {
        return t == null ? 0 : Math.max(0, t.getJavaThreadId());
    }

    private static String name(RecordedThread t) {
        if (t == null) {
            return "";
        }
        String n = t.getJavaName();
        return n != null ? n : t.getOSName() != null ? t.getOSName() : "";
    }

    private static String className(RecordedClass c) {
        return c == null ? "" : c.getName();
    }

    private static String loader(Object value) {
        if (!(value instanceof RecordedClassLoader)) {
            return "bootstrap";
        }
        RecordedClassLoader l = (RecordedClassLoader) value;
        String type = l.getType() == null ? "" : l.getType().getName();
        return l.getName() != null && !l.getName().isEmpty() ? l.getName() + " (" + type + ")" : type;
    }

    static String method(Object value) {
        if (!(value instanceof RecordedMethod)) {
            return "";
        }
        RecordedMethod m = (RecordedMethod) value;
        return m.getType().getName() + "." + m.getName() + m.getDescriptor();
    }

    /**
     * The method that created the exception: the first frame below the constructors of the
     * exception and of its Throwable superclasses (recognised by name: the thrown class itself, a
     * java.lang class, or a class named *Exception, *Error or *Throwable), or "" without a stack trace.
     */
    static String thrower(RecordedStackTrace stack, String thrownClass) {
        if (stack == null) {
            return "";
        }
        List<RecordedFrame> frames = stack.getFrames();
        for (RecordedFrame f : frames) {
            RecordedMethod m = f.getMethod();
            if (m == null) {
                continue;
            }
            String type = m.getType().getName();
            boolean throwableSetup = (m.getName().equals("<init>") || m.getName().equals("fillInStackTrace"))
                    && (type.equals(thrownClass) || type.startsWith("java.lang.") || type.endsWith("Exception")
                    || type.endsWith("Error") || type.endsWith("Throwable"));
            if (!throwableSetup && !type.startsWith("jdk.jfr.")) {
                return type + "." + m.getName() + m.getDescriptor();
            }
        }
        return "";
    }
}
