package dev.jetw.agent.e2e;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A jetw .etl file read with the project's reader and decoded by JetwSchema: the method-call events in
 * time order, and the method and thread rundowns.
 */
final class TraceFile {

    /** A START, END or CHECKPOINT. {@code text} is END's exception class or CHECKPOINT's label. */
    record Call(int type, int level, int threadId, int instanceId, int parentInstanceId, int methodId, String text, long timestamp) {
    }

    record Method(int id, String className, String methodName, String descriptor) {
        String name() {
            return className + "#" + methodName;
        }
    }

    final List<Call> calls = new ArrayList<>();
    final Map<Integer, Method> methodStarts = new LinkedHashMap<>();
    final Map<Integer, Method> methodEnds = new LinkedHashMap<>();
    final Map<Long, String> threadStarts = new LinkedHashMap<>();
    /** Java thread id to OS thread id, from the Thread rundown (version 1). */
    final Map<Long, Long> osThreadIds = new LinkedHashMap<>();
    int records;

    static TraceFile read(Path file) throws Exception {
        TraceFile trace = new TraceFile();
        try (EtlReader reader = EtlReader.open(file)) {
            for (EtlRecord r; (r = reader.next()) != null; ) {
                if (r.isLogfileHeader()) {
                    continue;
                }
                trace.records++;
                ByteBuffer data = ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN);
                if (JetwSchema.METHOD_CALL_CLASS.equals(r.guid())) {
                    int methodId = data.getInt();
                    // DEQUEUE (cross-thread link): "kind waitNanos".
                    String text = r.type() == EventType.START ? null
                            : r.type() == EventType.DEQUEUE ? data.getInt() + " " + data.getLong() : utf16z(data);
                    trace.calls.add(new Call(r.type(), r.level(), r.threadId(), r.instanceId(), r.parentInstanceId(), methodId, text,
                            r.rawTimestamp()));
                } else if (JetwSchema.METHOD_CLASS.equals(r.guid())) {
                    Method m = new Method(data.getInt(), utf16z(data), utf16z(data), utf16z(data));
                    (r.type() == EventType.DC_END ? trace.methodEnds : trace.methodStarts).put(m.id(), m);
                } else if (JetwSchema.THREAD_CLASS.equals(r.guid()) && r.type() == EventType.DC_START) {
                    long id = data.getLong();
                    if (r.version() >= 1) {
                        trace.osThreadIds.put(id, data.getLong());
                    }
                    trace.threadStarts.put(id, utf16z(data));
                }
            }
        }
        // Buffers are flushed per writer, so file order is not time order across threads; within a
        // thread timestamps never go back, and the stable sort keeps file order for equal ones.
        trace.calls.sort(Comparator.comparingLong(Call::timestamp));
        return trace;
    }

    /** The rundown's id of {@code className#methodName}; fails if absent. */
    int methodId(String className, String methodName) {
        for (Method m : methodStarts.values()) {
            if (m.className().equals(className) && m.methodName().equals(methodName)) {
                return m.id();
            }
        }
        throw new AssertionError("no method rundown for " + className + "#" + methodName + " in " + methodStarts.values());
    }

    long count(int type, int methodId) {
        return calls.stream().filter(c -> c.type() == type && c.methodId() == methodId).count();
    }

    private static String utf16z(ByteBuffer data) {
        StringBuilder sb = new StringBuilder();
        while (data.remaining() >= 2) {
            char c = data.getChar();
            if (c == 0) {
                break;
            }
            sb.append(c);
        }
        return sb.toString();
    }


    /**
     * Replays each thread's START/END/CHECKPOINT against a stack: a START's parent is the enclosing
     * call on its thread (0 at the top), an END closes the innermost open call (same instance and
     * method), a CHECKPOINT names the innermost open call, and every thread ends with no open call.
     * A DEQUEUE (a linked task begins) opens a frame without END: it encloses the STARTs parented to it
     * and ends at the first START or END that is not inside it (the task returned).
     */
    void assertBalancedAndNested() {
        Map<Integer, java.util.ArrayDeque<Call>> open = new LinkedHashMap<>();
        for (Call c : calls) {
            java.util.ArrayDeque<Call> stack = open.computeIfAbsent(c.threadId(), t -> new java.util.ArrayDeque<>());
            if (c.type() == EventType.START) {
                while (stack.peek() != null && stack.peek().type() == EventType.DEQUEUE && stack.peek().instanceId() != c.parentInstanceId()) {
                    stack.pop();
                }
            } else if (c.type() == EventType.END) {
                while (stack.peek() != null && stack.peek().type() == EventType.DEQUEUE) {
                    stack.pop();
                }
            }
            Call top = stack.peek();
            switch (c.type()) {
                case EventType.DEQUEUE -> stack.push(c);
                case EventType.START -> {
                    int expectedParent = top == null ? 0 : top.instanceId();
                    if (c.parentInstanceId() != expectedParent) {
                        throw new AssertionError("START " + describe(c) + " has parent " + c.parentInstanceId() + ", the enclosing call is "
                                + (top == null ? "none (0)" : describe(top)));
                    }
                    stack.push(c);
                }
                case EventType.END -> {
                    if (top == null || top.instanceId() != c.instanceId() || top.methodId() != c.methodId()) {
                        throw new AssertionError("END " + describe(c) + " does not close the innermost open call " + (top == null ? "(none)" : describe(top)));
                    }
                    stack.pop();
                }
                case EventType.CHECKPOINT -> {
                    if (top == null || top.methodId() != c.methodId()) {
                        throw new AssertionError("CHECKPOINT " + describe(c) + " names another method than the open call " + (top == null ? "(none)" : describe(top)));
                    }
                }
                default -> throw new AssertionError("unexpected method-call event type " + c.type());
            }
        }
        open.forEach((thread, stack) -> {
            stack.removeIf(c -> c.type() == EventType.DEQUEUE);
            if (!stack.isEmpty()) {
                throw new AssertionError("thread " + thread + " has calls without END: " + stack.stream().map(this::describe).toList());
            }
        });
    }

    String describe(Call c) {
        Method m = methodStarts.get(c.methodId());
        return (m == null ? "method " + c.methodId() : m.name()) + " [instance " + c.instanceId() + ", thread " + c.threadId() + "]";
    }
}
