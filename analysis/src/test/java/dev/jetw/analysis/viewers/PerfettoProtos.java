package dev.jetw.analysis.viewers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code .pftrace} as Perfetto's own schema reads it: {@code protoc --decode=perfetto.protos.Trace} with
 * Perfetto's merged {@code perfetto_trace.proto} (vendored beside this class, README.md there), its text
 * output parsed into messages. protoc prints a field the schema does not have, or a known field sent with
 * another wire type than the schema's, by its number ({@code 47: 0x...}, {@code 11 {...}}): those are
 * collected as {@link #unknownFields}. Callers gate on {@link ViewerTools#requireProtoc} first.
 */
public final class PerfettoProtos {

    /** A decoded message: field name to values (a String for a scalar as protoc prints it, a Message for a nested one). */
    public static final class Message {
        public final Map<String, List<Object>> fields = new LinkedHashMap<>();

        void add(String name, Object value) {
            fields.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }

        /** The first value of {@code name} as protoc printed it (strings unquoted), or null. */
        public String get(String name) {
            List<Object> v = fields.get(name);
            return v == null ? null : (String) v.get(0);
        }

        public Message message(String name) {
            List<Object> v = fields.get(name);
            return v == null ? null : (Message) v.get(0);
        }

        public List<Object> all(String name) {
            return fields.getOrDefault(name, List.of());
        }

        @Override
        public String toString() {
            return fields.toString();
        }
    }

    /** The trace's packets, in file order. */
    public final List<Message> packets = new ArrayList<>();
    /** The lines protoc printed by field number (not in the schema, or with the wrong wire type), with their path. */
    public final List<String> unknownFields = new ArrayList<>();

    private PerfettoProtos() {
    }

    private static final Pattern OPEN = Pattern.compile("^\\s*(\\S+) \\{$");
    private static final Pattern SCALAR = Pattern.compile("^\\s*(\\S+): (.*)$");

    /** Decodes {@code pftrace}; fails when protoc rejects it (a malformed message, a required field missing). */
    public static PerfettoProtos decode(Path pftrace) throws IOException {
        Path dir = Files.createTempDirectory("jetw-perfetto-proto");
        try {
            Path proto = ViewerTools.resource("perfetto_trace.proto", dir);
            ViewerTools.Ran ran = ViewerTools.run(List.of("protoc", "-I", dir.toString(), "--decode=perfetto.protos.Trace",
                    proto.getFileName().toString()), 300, pftrace);
            if (ran.exit != 0 || !ran.stderr.isBlank()) {
                throw new AssertionError("protoc --decode=perfetto.protos.Trace rejects " + pftrace + ": exit " + ran.exit + ": " + ran.stderr);
            }
            return parse(ran.stdout);
        } finally {
            Files.deleteIfExists(dir.resolve("perfetto_trace.proto"));
            Files.deleteIfExists(dir);
        }
    }

    static PerfettoProtos parse(String text) {
        PerfettoProtos p = new PerfettoProtos();
        Message root = new Message();
        Deque<Message> stack = new ArrayDeque<>();
        Deque<String> path = new ArrayDeque<>();
        stack.push(root);
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Matcher open = OPEN.matcher(line);
            Matcher scalar = SCALAR.matcher(line);
            if (line.trim().equals("}")) {
                stack.pop();
                path.removeLast();
            } else if (open.matches()) {
                Message m = new Message();
                stack.peek().add(open.group(1), m);
                stack.push(m);
                path.addLast(open.group(1));
                if (open.group(1).matches("\\d+")) {
                    p.unknownFields.add(String.join(".", path) + " { ... }");
                }
            } else if (scalar.matches()) {
                String value = scalar.group(2);
                if (value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                stack.peek().add(scalar.group(1), value);
                if (scalar.group(1).matches("\\d+")) {
                    p.unknownFields.add(String.join(".", path) + "." + line.trim());
                }
            } else {
                throw new AssertionError("protoc printed a line this parser does not know: " + line);
            }
        }
        for (Object packet : root.all("packet")) {
            p.packets.add((Message) packet);
        }
        if (root.fields.size() > (root.fields.containsKey("packet") ? 1 : 0)) {
            p.unknownFields.add("Trace fields other than packet: " + root.fields.keySet());
        }
        return p;
    }

    /** The packets that carry {@code field} (track_descriptor, track_event). */
    public List<Message> packets(String field) {
        List<Message> out = new ArrayList<>();
        for (Message m : packets) {
            if (m.message(field) != null) {
                out.add(m.message(field));
            }
        }
        return out;
    }

    /** The number of track events of {@code type} (TYPE_SLICE_BEGIN, TYPE_SLICE_END, TYPE_INSTANT). */
    public long events(String type) {
        return packets("track_event").stream().filter(e -> type.equals(e.get("type"))).count();
    }
}
