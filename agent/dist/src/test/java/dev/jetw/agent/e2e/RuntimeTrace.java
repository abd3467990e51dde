package dev.jetw.agent.e2e;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The JVM runtime events of a jetw .etl file, decoded with JvmEventSchema; START/END paired by class and instance id. */
final class RuntimeTrace {

    /** One runtime event: its class, type, raw time stamp (session clock) and named field values. */
    record Event(JvmEventSchema.EventClass cls, int type, int instanceId, long timestamp, Map<String, Object> fields) {
        long javaThreadId() {
            return (Long) fields.get("JavaThreadId");
        }

        Object get(String name) {
            return fields.get(name);
        }
    }

    /** A START with its END (end null if none) or an instant. */
    record Span(Event start, Event end) {
        long duration() {
            return end.timestamp() - start.timestamp();
        }
    }

    final List<Event> events = new ArrayList<>();
    final List<Span> spans = new ArrayList<>();
    /** Ticks per second of the raw time stamps. */
    long frequency;

    static RuntimeTrace read(Path file) throws Exception {
        RuntimeTrace t = new RuntimeTrace();
        Map<Long, Event> open = new HashMap<>();
        try (EtlReader reader = EtlReader.open(file)) {
            t.frequency = reader.header().perfFreq();
            for (EtlRecord r; (r = reader.next()) != null; ) {
                JvmEventSchema.EventClass c = r.guid() == null ? null : JvmEventSchema.byGuid(r.guid());
                if (c == null) {
                    continue;
                }
                JvmEventSchema.Layout layout = c.layout(r.type());
                Object[] values = layout == null ? null : layout.decode(r.userData());
                if (values == null) {
                    throw new AssertionError("payload of " + c.name + " type " + r.type() + " does not match the schema");
                }
                Map<String, Object> fields = new HashMap<>();
                for (int i = 0; i < values.length; i++) {
                    fields.put(layout.fields.get(i).name, values[i]);
                }
                Event e = new Event(c, r.type(), r.instanceId(), r.rawTimestamp(), fields);
                t.events.add(e);
                long key = (long) c.index << 32 | (r.instanceId() & 0xFFFFFFFFL);
                if (c.paired && r.type() == EventType.START) {
                    open.put(key, e);
                } else if (c.paired && r.type() == EventType.END) {
                    Event s = open.remove(key);
                    if (s == null) {
                        throw new AssertionError("END without START: " + e);
                    }
                    t.spans.add(new Span(s, e));
                }
            }
        }
        if (!open.isEmpty()) {
            throw new AssertionError("START without END: " + open.values());
        }
        return t;
    }

    List<Span> spans(JvmEventSchema.EventClass c) {
        return spans.stream().filter(s -> s.start().cls() == c).toList();
    }

    List<Event> events(JvmEventSchema.EventClass c, int type) {
        return events.stream().filter(e -> e.cls() == c && e.type() == type).toList();
    }

    double millis(long ticks) {
        return ticks * 1000.0 / frequency;
    }
}
