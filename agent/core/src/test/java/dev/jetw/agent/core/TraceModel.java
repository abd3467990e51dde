package dev.jetw.agent.core;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A trace decoded per JetwSchema, whatever wrote or read it: method names from the rundown, and
 * per thread the call tree rebuilt from START/END and checked for balance and parent links.
 */
public final class TraceModel {

    /** One event, as a backend recorded it or a reader read it. */
    static final class Ev {
        final long threadId;
        final int type;
        final int level;
        final int classIndex;
        final int instanceId;
        final int parentInstanceId;
        final byte[] payload;

        Ev(long threadId, int type, int level, int classIndex, int instanceId, int parentInstanceId, byte[] payload) {
            this.threadId = threadId;
            this.type = type;
            this.level = level;
            this.classIndex = classIndex;
            this.instanceId = instanceId;
            this.parentInstanceId = parentInstanceId;
            this.payload = payload;
        }

        ByteBuffer buf() {
            return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        }

        int methodId() {
            return buf().getInt(0);
        }
    }

    /** One traced call as rebuilt from its START and END. */
    static final class Call {
        final long threadId;
        final String method;
        final String path;
        final int startLevel;
        int endLevel = -1;
        String exception;
        final List<String> checkpoints = new ArrayList<>();

        Call(long threadId, String method, String path, int startLevel) {
            this.threadId = threadId;
            this.method = method;
            this.path = path;
            this.startLevel = startLevel;
        }
    }

    final List<Ev> events;
    final Map<Integer, String> methodStarts = new LinkedHashMap<>();
    final Map<Integer, String> methodEnds = new LinkedHashMap<>();
    final Map<Long, List<String>> threadStarts = new HashMap<>();
    final Map<Long, List<String>> threadEnds = new HashMap<>();
    /** Calls in START order. */
    final List<Call> calls = new ArrayList<>();
    /** CHECKPOINTs outside any traced call: label by level. */
    final List<String> orphanCheckpoints = new ArrayList<>();

    TraceModel(List<Ev> events) {
        this.events = events;
        for (Ev e : events) {
            if (e.classIndex == JetwSchema.METHOD_INDEX) {
                ByteBuffer b = e.buf();
                int id = b.getInt();
                String name = utf16z(b) + "." + utf16z(b);
                String desc = utf16z(b);
                assertEquals(b.limit(), b.position(), "Method rundown payload has trailing bytes");
                assertTrue(desc.startsWith("("), "descriptor " + desc);
                (e.type == EventType.DC_START ? methodStarts : methodEnds).put(id, name);
                assertEquals(0, e.instanceId, "rundown is a plain event");
            } else if (e.classIndex == JetwSchema.THREAD_INDEX) {
                ByteBuffer b = e.buf();
                long tid = b.getLong();
                b.getLong(); // the OS thread id: the agent writes Thread version 1
                String name = utf16z(b);
                (e.type == EventType.DC_START ? threadStarts : threadEnds).computeIfAbsent(tid, k -> new ArrayList<>()).add(name);
            }
        }
        Map<Long, Deque<Ev>> stacks = new HashMap<>();
        Map<Integer, Call> open = new HashMap<>();
        for (Ev e : events) {
            if (e.classIndex != JetwSchema.METHOD_CALL_INDEX) {
                continue;
            }
            Deque<Ev> stack = stacks.computeIfAbsent(e.threadId, k -> new ArrayDeque<>());
            switch (e.type) {
                case EventType.START: {
                    int expectedParent = stack.isEmpty() ? 0 : stack.peek().instanceId;
                    assertEquals(expectedParent, e.parentInstanceId, "START's parent is the enclosing traced call");
                    String name = methodName(e.methodId());
                    String path = stack.isEmpty() ? name : open.get(stack.peek().instanceId).path + ">" + name;
                    Call c = new Call(e.threadId, name, path, e.level);
                    calls.add(c);
                    open.put(e.instanceId, c);
                    stack.push(e);
                    break;
                }
                case EventType.END: {
                    if (stack.isEmpty()) {
                        fail("END without START on thread " + e.threadId);
                    }
                    Ev start = stack.pop();
                    assertEquals(start.instanceId, e.instanceId, "END closes the innermost open call");
                    assertEquals(start.methodId(), e.methodId(), "END names the START's method");
                    assertEquals(stack.isEmpty() ? 0 : stack.peek().instanceId, e.parentInstanceId, "END's parent");
                    ByteBuffer b = e.buf();
                    b.getInt();
                    Call c = open.remove(e.instanceId);
                    c.endLevel = e.level;
                    c.exception = utf16z(b);
                    break;
                }
                case EventType.CHECKPOINT: {
                    ByteBuffer b = e.buf();
                    int methodId = b.getInt();
                    String label = utf16z(b);
                    if (stack.isEmpty()) {
                        assertEquals(0, methodId, "a checkpoint outside traced calls names no method");
                        orphanCheckpoints.add(label + "@" + e.level);
                    } else {
                        assertEquals(stack.peek().instanceId, e.instanceId, "checkpoint carries the enclosing call's instance");
                        assertEquals(stack.peek().methodId(), methodId, "checkpoint names the enclosing method");
                        open.get(e.instanceId).checkpoints.add(label + "@" + e.level);
                    }
                    break;
                }
                default:
                    fail("unexpected MethodCall type " + e.type);
            }
        }
        for (Map.Entry<Long, Deque<Ev>> s : stacks.entrySet()) {
            assertTrue(s.getValue().isEmpty(), "thread " + s.getKey() + " has " + s.getValue().size() + " STARTs without END");
        }
    }

    String methodName(int id) {
        String n = methodStarts.get(id);
        assertNotNull(n, "method id " + id + " used before a Method DC_START named it");
        return n;
    }

    List<String> paths(long threadId) {
        List<String> out = new ArrayList<>();
        for (Call c : calls) {
            if (c.threadId == threadId) {
                out.add(c.path);
            }
        }
        return out;
    }

    List<Call> callsOf(String method) {
        List<Call> out = new ArrayList<>();
        for (Call c : calls) {
            if (c.method.equals(method)) {
                out.add(c);
            }
        }
        return out;
    }

    long count(int classIndex, int type) {
        return events.stream().filter(e -> e.classIndex == classIndex && e.type == type).count();
    }

    public static String utf16z(ByteBuffer b) {
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = b.getChar();
            if (c == 0) {
                return sb.toString();
            }
            sb.append(c);
        }
    }

    /**
     * Reads an .etl file with the project's reader. Events are keyed by the Java thread id that the
     * thread's Thread DC_START names (the record's own ThreadId is the OS thread's); within a thread
     * they keep the file's order, stably sorted by timestamp.
     */
    static TraceModel of(java.nio.file.Path etl) throws java.io.IOException {
        List<dev.jetw.etl.EtlRecord> records = new ArrayList<>();
        try (dev.jetw.etl.EtlReader reader = dev.jetw.etl.EtlReader.open(etl)) {
            dev.jetw.etl.EtlRecord r;
            while ((r = reader.next()) != null) {
                if (r.guid() != null && JetwSchema.EVENT_CLASSES.contains(r.guid())) {
                    records.add(r);
                }
            }
            assertTrue(reader.problems().isEmpty(), "reader problems: " + reader.problems());
        }
        records.sort(java.util.Comparator.comparingLong(dev.jetw.etl.EtlRecord::rawTimestamp));
        Map<Integer, Long> javaThreadOf = new HashMap<>();
        for (dev.jetw.etl.EtlRecord r : records) {
            if (r.guid().equals(JetwSchema.THREAD_CLASS) && r.type() == EventType.DC_START) {
                javaThreadOf.putIfAbsent(r.threadId(),
                        ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
            }
        }
        List<Ev> evs = new ArrayList<>();
        for (dev.jetw.etl.EtlRecord r : records) {
            long thread = javaThreadOf.getOrDefault(r.threadId(), (long) r.threadId());
            evs.add(new Ev(thread, r.type(), r.level(), JetwSchema.EVENT_CLASSES.indexOf(r.guid()), r.instanceId(),
                    r.parentInstanceId(), r.userData()));
        }
        return new TraceModel(evs);
    }

    static TraceModel of(RecordingBackend backend) {
        List<Ev> evs = new ArrayList<>();
        for (RecordingBackend.Event e : backend.snapshot()) {
            evs.add(new Ev(e.threadId, e.type, e.level, e.classIndex, e.instanceId, e.parentInstanceId, e.payload));
        }
        return new TraceModel(evs);
    }
}
