package dev.jetw.selftest;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Writes what the agent writes for nested calls, from several threads at once, through the production
 * provider (ClassicProvider, i.e. TraceEventInstance on Windows), and remembers every accepted event.
 * Per call: outer START (information) → CHECKPOINT (verbose) → inner START (verbose, parent = outer)
 * → inner END (verbose, parent = outer) → outer END, every other one by exception at level error.
 * Payloads follow JetwSchema; START takes the writeSmall path, the others the payload path.
 */
final class CallWorkload {

    static final int EVENTS_PER_CALL = 5;
    static final String EXCEPTION = "java.lang.IllegalStateException";

    private CallWorkload() {
    }

    /**
     * Runs {@code threads} threads of {@code calls} calls each and waits for them.
     *
     * @throws IllegalStateException when a thread did not finish within a minute or failed
     */
    static List<WrittenThread> write(ClassicProvider provider, ThreadIds ids, int threads, int calls) throws InterruptedException {
        List<WrittenThread> written = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            final int index = t;
            Thread worker = new Thread(() -> {
                try {
                    WrittenThread mine = new WrittenThread(Thread.currentThread().getName(), ids.current());
                    synchronized (written) {
                        written.add(mine);
                    }
                    go.await();
                    writeCalls(provider, mine, index, calls);
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "jetw-selftest-writer-" + t);
            workers.add(worker);
            worker.start();
        }
        go.countDown();
        for (Thread worker : workers) {
            worker.join(TimeUnit.MINUTES.toMillis(1));
            if (worker.isAlive()) {
                throw new IllegalStateException(worker.getName() + " did not finish its writes within a minute");
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a writer thread failed: " + failures.get(0), failures.get(0));
        }
        written.sort((a, b) -> a.name.compareTo(b.name));
        return written;
    }

    /** Method ids carry the thread index, so a record in the wrong thread's stream is visible as such. */
    static int outerMethodId(int threadIndex, int call) {
        return (threadIndex + 1) * 100_000 + call * 2;
    }

    private static void writeCalls(ClassicProvider provider, WrittenThread mine, int threadIndex, int calls) {
        EventScratch scratch = provider.newScratch();
        try {
            int cls = JetwSchema.METHOD_CALL_INDEX;
            for (int call = 0; call < calls; call++) {
                int outerMethod = outerMethodId(threadIndex, call);
                int innerMethod = outerMethod + 1;
                int outer = provider.newInstanceId(scratch, cls);
                start(provider, scratch, mine, TraceLevel.INFORMATION, outer, 0, outerMethod);
                text(provider, scratch, mine, EventType.CHECKPOINT, TraceLevel.VERBOSE, outer, 0, outerMethod, "call " + call);
                int inner = provider.newInstanceId(scratch, cls);
                start(provider, scratch, mine, TraceLevel.VERBOSE, inner, outer, innerMethod);
                text(provider, scratch, mine, EventType.END, TraceLevel.VERBOSE, inner, outer, innerMethod, "");
                boolean thrown = call % 2 == 1;
                text(provider, scratch, mine, EventType.END, thrown ? TraceLevel.ERROR : TraceLevel.INFORMATION, outer, 0,
                        outerMethod, thrown ? EXCEPTION : "");
            }
        } finally {
            provider.retire(scratch);
        }
    }

    private static void start(ClassicProvider provider, EventScratch scratch, WrittenThread mine, int level,
                              int instance, int parent, int methodId) {
        boolean ok = provider.writeSmall(scratch, EventType.START, level, JetwSchema.METHOD_CALL_INDEX, instance,
                parent == 0 ? -1 : JetwSchema.METHOD_CALL_INDEX, parent, methodId & 0xFFFFFFFFL, 4);
        remember(mine, ok, new ExpectedEvent(EventType.START, level, instance, parent, u32(methodId)));
    }

    /** An event whose payload is u32 methodId + UTF-16Z text (END's exception class, CHECKPOINT's label). */
    private static void text(ClassicProvider provider, EventScratch scratch, WrittenThread mine, int type, int level,
                             int instance, int parent, int methodId, String text) {
        ByteBuffer p = scratch.payload(4 + 2 * (text.length() + 1));
        p.putInt(methodId);
        for (int i = 0; i < text.length(); i++) {
            p.putChar(text.charAt(i));
        }
        p.putChar('\0');
        byte[] expected = new byte[p.position()];
        ((ByteBuffer) p.duplicate().flip()).get(expected);
        boolean ok = provider.write(scratch, type, level, JetwSchema.METHOD_CALL_INDEX, instance,
                parent == 0 ? -1 : JetwSchema.METHOD_CALL_INDEX, parent);
        remember(mine, ok, new ExpectedEvent(type, level, instance, parent, expected));
    }

    private static void remember(WrittenThread mine, boolean accepted, ExpectedEvent event) {
        if (accepted) {
            mine.events.add(event);
        } else {
            mine.refused++;
        }
    }

    static byte[] u32(int value) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
    }
}
