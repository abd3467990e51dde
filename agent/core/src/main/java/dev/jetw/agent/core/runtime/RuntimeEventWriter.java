package dev.jetw.agent.core.runtime;

import dev.jetw.agent.core.writing.Payloads;
import dev.jetw.etl.JvmEventSchema.EventClass;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.JetwThreads;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Writes the JVM runtime events (JvmEventSchema layouts) for the runtime event sources. It runs on
 * the sources' own threads (the JFR consumer thread, the JMX notification thread), never on an
 * application thread, so it may lock: one lock and one scratch serve every source. Times are
 * {@link System#nanoTime()} readings; the provider puts them into the session's clock (caller-set
 * time stamps), so a START written after the fact carries the time the JVM measured.
 *
 * <p>Every method is a no-op for a family that is not selected, when the session does not listen
 * at the class's level, or after {@link #close}; and for an event whose subject thread is one of jetw's own
 * ({@link JetwThreads}: the logger's parks, the control channel's I/O are jetw's noise), which is counted
 * ({@link #ownThreadEvents}). A contention whose waiter is the application's is written even when a jetw
 * thread held the monitor: that wait is the application's.
 */
public final class RuntimeEventWriter {

    /**
     * The subject of the JVM-wide events (GC, its pauses) and of safepoints: a safepoint stops every thread, so it
     * is written whoever asked for it, even a jetw thread (a retransformation's pause is felt by the application).
     */
    private static final long NO_SUBJECT = 0;

    private final ClassicProvider provider;
    private final Set<String> families;
    /** Events left out because their subject is one of jetw's own threads (status shows the number). */
    private long ownThreadEvents;
    private EventScratch scratch;
    private boolean closed;

    RuntimeEventWriter(ClassicProvider provider, Set<String> families) {
        this.provider = provider;
        this.families = families;
    }

    /** The selected families ({@code jvm=}), in JvmEventSchema.FAMILIES order. */
    public Set<String> families() {
        return families;
    }

    /** True when {@code family} was selected ({@code jvm=}). */
    public boolean selected(String family) {
        return families.contains(family);
    }

    public synchronized void gc(long start, long end, int gcId, String name, String cause, long longestPauseNs, long sumOfPausesNs) {
        if (begin(JvmEventSchema.GC, NO_SUBJECT)) {
            int id = instance(JvmEventSchema.GC);
            ByteBuffer p = payload(0, 0, 4 + Payloads.utf16zBytes(name) + Payloads.utf16zBytes(cause));
            p.putInt(gcId);
            Payloads.putUtf16z(p, name);
            Payloads.putUtf16z(p, cause);
            write(start, EventType.START, JvmEventSchema.GC, id);
            p = payload(0, 0, 20);
            p.putInt(gcId).putLong(longestPauseNs).putLong(sumOfPausesNs);
            write(end, EventType.END, JvmEventSchema.GC, id);
        }
    }

    public synchronized void gcHeap(long at, int gcId, boolean afterGc, long heapUsed) {
        if (begin(JvmEventSchema.GC, NO_SUBJECT)) {
            payload(0, 0, 16).putInt(gcId).putInt(afterGc ? 1 : 0).putLong(heapUsed);
            write(at, EventType.INFO, JvmEventSchema.GC, 0);
        }
    }

    public synchronized void gcPause(long start, long end, int gcId, String name) {
        if (begin(JvmEventSchema.GC_PAUSE, NO_SUBJECT)) {
            int id = instance(JvmEventSchema.GC_PAUSE);
            ByteBuffer p = payload(0, 0, 4 + Payloads.utf16zBytes(name));
            p.putInt(gcId);
            Payloads.putUtf16z(p, name);
            write(start, EventType.START, JvmEventSchema.GC_PAUSE, id);
            payload(0, 0, 4).putInt(gcId);
            write(end, EventType.END, JvmEventSchema.GC_PAUSE, id);
        }
    }

    public synchronized void safepoint(long start, long end, long osTid, long javaTid, long safepointId, long timeToSafepointNs,
                                       String operation) {
        if (begin(JvmEventSchema.SAFEPOINT, NO_SUBJECT)) {
            int id = instance(JvmEventSchema.SAFEPOINT);
            ByteBuffer p = payload(osTid, javaTid, 16 + Payloads.utf16zBytes(operation));
            p.putLong(safepointId).putLong(timeToSafepointNs);
            Payloads.putUtf16z(p, operation);
            write(start, EventType.START, JvmEventSchema.SAFEPOINT, id);
            payload(osTid, javaTid, 8).putLong(safepointId);
            write(end, EventType.END, JvmEventSchema.SAFEPOINT, id);
        }
    }

    /** {@code kind} 0: blocked entering the monitor (owner = previous owner); 1: waiting on it (owner = notifier). */
    public synchronized void contention(long start, long end, long osTid, long javaTid, int kind, long ownerOsTid, long ownerJavaTid,
                                        String monitorClass) {
        if (begin(JvmEventSchema.CONTENTION, javaTid)) {
            int id = instance(JvmEventSchema.CONTENTION);
            ByteBuffer p = payload(osTid, javaTid, 20 + Payloads.utf16zBytes(monitorClass));
            p.putInt(kind).putLong(ownerOsTid).putLong(ownerJavaTid);
            Payloads.putUtf16z(p, monitorClass);
            write(start, EventType.START, JvmEventSchema.CONTENTION, id);
            payload(osTid, javaTid, 4).putInt(kind);
            write(end, EventType.END, JvmEventSchema.CONTENTION, id);
        }
    }

    public synchronized void park(long start, long end, long osTid, long javaTid, long timeoutNs, String blockerClass) {
        if (begin(JvmEventSchema.PARK, javaTid)) {
            int id = instance(JvmEventSchema.PARK);
            ByteBuffer p = payload(osTid, javaTid, 8 + Payloads.utf16zBytes(blockerClass));
            p.putLong(timeoutNs);
            Payloads.putUtf16z(p, blockerClass);
            write(start, EventType.START, JvmEventSchema.PARK, id);
            payload(osTid, javaTid, 0);
            write(end, EventType.END, JvmEventSchema.PARK, id);
        }
    }

    public synchronized void compilation(long start, long end, long osTid, long javaTid, int compileId, int tier, boolean osr,
                                         String method, boolean succeeded, int codeSize, int inlinedBytes) {
        if (begin(JvmEventSchema.JIT, javaTid)) {
            int id = instance(JvmEventSchema.JIT);
            ByteBuffer p = payload(osTid, javaTid, 12 + Payloads.utf16zBytes(method));
            p.putInt(compileId).putInt(tier).putInt(osr ? 1 : 0);
            Payloads.putUtf16z(p, method);
            write(start, EventType.START, JvmEventSchema.JIT, id);
            payload(osTid, javaTid, 16).putInt(compileId).putInt(succeeded ? 1 : 0).putInt(codeSize).putInt(inlinedBytes);
            write(end, EventType.END, JvmEventSchema.JIT, id);
        }
    }

    public synchronized void deoptimization(long at, long osTid, long javaTid, int compileId, String method, String reason) {
        if (begin(JvmEventSchema.JIT, javaTid)) {
            ByteBuffer p = payload(osTid, javaTid, 4 + Payloads.utf16zBytes(method) + Payloads.utf16zBytes(reason));
            p.putInt(compileId);
            Payloads.putUtf16z(p, method);
            Payloads.putUtf16z(p, reason);
            write(at, EventType.INFO, JvmEventSchema.JIT, 0);
        }
    }

    public synchronized void classLoad(long start, long end, long osTid, long javaTid, String className, String loader) {
        if (begin(JvmEventSchema.CLASS_LOAD, javaTid)) {
            int id = instance(JvmEventSchema.CLASS_LOAD);
            ByteBuffer p = payload(osTid, javaTid, Payloads.utf16zBytes(className) + Payloads.utf16zBytes(loader));
            Payloads.putUtf16z(p, className);
            Payloads.putUtf16z(p, loader);
            write(start, EventType.START, JvmEventSchema.CLASS_LOAD, id);
            payload(osTid, javaTid, 0);
            write(end, EventType.END, JvmEventSchema.CLASS_LOAD, id);
        }
    }

    public synchronized void classUnload(long at, long osTid, long javaTid, String className, String loader) {
        if (begin(JvmEventSchema.CLASS_LOAD, javaTid)) {
            ByteBuffer p = payload(osTid, javaTid, Payloads.utf16zBytes(className) + Payloads.utf16zBytes(loader));
            Payloads.putUtf16z(p, className);
            Payloads.putUtf16z(p, loader);
            write(at, EventType.INFO, JvmEventSchema.CLASS_LOAD, 0);
        }
    }

    public synchronized void exception(long at, long osTid, long javaTid, String exceptionClass, String throwingMethod, String message) {
        if (begin(JvmEventSchema.EXCEPTION, javaTid)) {
            ByteBuffer p = payload(osTid, javaTid, Payloads.utf16zBytes(exceptionClass) + Payloads.utf16zBytes(throwingMethod)
                    + Payloads.utf16zBytes(message));
            Payloads.putUtf16z(p, exceptionClass);
            Payloads.putUtf16z(p, throwingMethod);
            Payloads.putUtf16z(p, message);
            write(at, EventType.INFO, JvmEventSchema.EXCEPTION, 0);
        }
    }

    /** A thread's start ({@code started}) or end. */
    public synchronized void thread(long at, boolean started, long osTid, long javaTid, boolean virtual, String name) {
        if (begin(JvmEventSchema.THREAD, javaTid)) {
            ByteBuffer p = payload(osTid, javaTid, 4 + Payloads.utf16zBytes(name));
            p.putInt(virtual ? 1 : 0);
            Payloads.putUtf16z(p, name);
            write(at, started ? EventType.START : EventType.END, JvmEventSchema.THREAD, 0);
        }
    }

    /** {@code kind}: 0 file read, 1 file write, 2 socket read, 3 socket write. */
    public synchronized void io(long start, long end, long osTid, long javaTid, int kind, String target, long bytes) {
        if (begin(JvmEventSchema.IO, javaTid)) {
            int id = instance(JvmEventSchema.IO);
            ByteBuffer p = payload(osTid, javaTid, 4 + Payloads.utf16zBytes(target));
            p.putInt(kind);
            Payloads.putUtf16z(p, target);
            write(start, EventType.START, JvmEventSchema.IO, id);
            payload(osTid, javaTid, 12).putInt(kind).putLong(bytes);
            write(end, EventType.END, JvmEventSchema.IO, id);
        }
    }

    /** How many events were left out because their subject was one of jetw's own threads (a START/END pair counts once). */
    public synchronized long ownThreadEvents() {
        return ownThreadEvents;
    }

    /** A source's failure on one event: counted with the agent's internal errors (status), the source goes on. */
    public void failed(Throwable t) {
        dev.jetw.bootstrap.Dispatcher.failed(t);
    }

    /** No event is written after this; the scratch's count stays in the provider's totals. */
    synchronized void close() {
        closed = true;
        if (scratch != null) {
            provider.retire(scratch);
            scratch = null;
        }
    }

    /**
     * True when an event of class {@code c} about thread {@code javaTid} is to be written: its family selected, the
     * session listening, and the thread not one of jetw's own ({@link JetwThreads}): those are left out and counted.
     */
    private boolean begin(EventClass c, long javaTid) {
        if (closed || !families.contains(c.family) || !provider.isEnabled(c.level)) {
            return false;
        }
        if (javaTid != NO_SUBJECT && JetwThreads.isJetw(javaTid)) {
            ownThreadEvents++;
            return false;
        }
        if (scratch == null) {
            scratch = provider.newScratch();
        }
        return true;
    }

    private int instance(EventClass c) {
        return provider.newInstanceId(scratch, c.index);
    }

    /** The scratch's payload with the subject thread written, room for {@code more} bytes after it. */
    private ByteBuffer payload(long osTid, long javaTid, int more) {
        ByteBuffer p = scratch.payload(16 + more);
        p.putLong(osTid).putLong(javaTid);
        return p;
    }

    private void write(long nanoTime, int type, EventClass c, int instanceId) {
        provider.writeAt(scratch, nanoTime, type, c.level, c.index, instanceId, -1, 0);
    }
}
