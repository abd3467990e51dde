package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;

import java.util.HashMap;
import java.util.Map;

/**
 * Method and thread names from jetw's rundown events (Method and Thread DC_START / DC_END).
 *
 * <p>Thread names: a Thread DC_START is written by the named thread itself, so its header thread id
 * names that thread; every Thread event also carries the Java thread id, which is the header thread
 * id of files written by the portable backend. A thread id is looked up among header thread ids of
 * DC_START events first, then among Java thread ids. An unnamed virtual thread is named
 * {@link #virtualThread "virtual thread #<java id>"} here, so that every command and export says the same.
 */
final class JetwNames {

    private final Map<Integer, String> methods = new HashMap<>();
    private final Map<Long, String> threadsByHeaderTid = new HashMap<>();
    private final Map<Long, String> threadsByJavaId = new HashMap<>();
    private final Map<Long, String> threadsByOsId = new HashMap<>();

    /** Takes the names a record carries, if it is a jetw rundown event. */
    void accept(EtlRecord r, JetwEvent e) {
        if (e == null) {
            return;
        }
        if (e.kind == JetwEvent.Kind.METHOD) {
            methods.put(e.methodId, e.methodDisplayName());
        } else if (e.kind == JetwEvent.Kind.RUNTIME && e.runtimeClass == JvmEventSchema.THREAD) {
            // A JvmThread event names its subject thread by OS id (Windows headers) and Java id (portable headers).
            String name = (String) e.field("ThreadName");
            if (name != null && !name.isEmpty()) {
                threadsByHeaderTid.putIfAbsent(key(r.processId(), (int) e.osThreadId()), name);
                threadsByOsId.putIfAbsent(key(r.processId(), (int) e.osThreadId()), name);
                threadsByJavaId.putIfAbsent(e.javaThreadId, name);
            } else if (e.field("Virtual") instanceof Number && ((Number) e.field("Virtual")).longValue() != 0) {
                threadsByJavaId.putIfAbsent(e.javaThreadId, virtualThread(e.javaThreadId));
            }
        } else if (e.kind == JetwEvent.Kind.THREAD) {
            String name = e.text.isEmpty() && e.threadOsId == 0 ? virtualThread(e.javaThreadId) : e.text;
            threadsByJavaId.put(e.javaThreadId, name);
            if (r.type() == EventType.DC_START) {
                threadsByHeaderTid.put(key(r.processId(), r.threadId()), name);
            }
        }
    }

    /**
     * The name every view gives a virtual thread (Java 21+) that has none: such a thread is unnamed unless the
     * application names it, and its rundown says it has no OS thread of its own (osThreadId 0), so without this the
     * viewers would show a bare pid/tid. The Java thread id is what the JVM's own tools (jcmd Thread.dump_to_file) show.
     */
    static String virtualThread(long javaThreadId) {
        return "virtual thread #" + javaThreadId;
    }

    private static long key(int pid, int tid) {
        return (long) pid << 32 | (tid & 0xFFFFFFFFL);
    }

    /** "com.example.Foo.bar()V" or "method#7" when the rundown did not name it. */
    String method(int methodId) {
        String n = methods.get(methodId);
        return n != null ? n : "method#" + methodId;
    }

    boolean knowsMethod(int methodId) {
        return methods.containsKey(methodId);
    }

    /** The name the JVM's thread events (JvmThread) give OS thread {@code osTid} of {@code pid}, or null. */
    String threadByOsId(int pid, long osTid) {
        return threadsByOsId.get(key(pid, (int) osTid));
    }

    /** The thread's name, or null. */
    String thread(int pid, int tid) {
        String n = threadsByHeaderTid.get(key(pid, tid));
        return n != null ? n : threadsByJavaId.get((long) tid);
    }
}
