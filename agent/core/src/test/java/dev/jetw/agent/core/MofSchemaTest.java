package dev.jetw.agent.core;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Calls;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MOF, parsed back: its classes, GUIDs and event types match JetwSchema, and its property
 * lists decode every payload the agent really writes, consuming exactly all bytes.
 */
class MofSchemaTest {

    @TempDir
    Path dir;

    /** A parsed MOF class: name, parent, qualifiers text, properties (type name pairs in WmiDataId order). */
    static final class MofClass {
        String name;
        String parent;
        String qualifiers;
        final List<String[]> properties = new ArrayList<>();
    }

    static Map<String, MofClass> parse(String mof) {
        Map<String, MofClass> classes = new HashMap<>();
        Pattern cls = Pattern.compile("\\[([^\\]]*)\\]\\s*class (\\w+) : (\\w+)\\s*\\{(.*?)\\};", Pattern.DOTALL);
        Pattern prop = Pattern.compile("\\[WmiDataId\\((\\d+)\\)([^\\]]*)\\] (\\w+) (\\w+);");
        Matcher m = cls.matcher(mof);
        while (m.find()) {
            MofClass c = new MofClass();
            c.qualifiers = m.group(1);
            c.name = m.group(2);
            c.parent = m.group(3);
            Matcher p = prop.matcher(m.group(4));
            int expectedId = 1;
            while (p.find()) {
                assertEquals(expectedId++, Integer.parseInt(p.group(1)), "WmiDataIds count up from 1 in " + c.name);
                if (p.group(3).equals("string")) {
                    assertTrue(p.group(2).contains("Format(\"w\")") && p.group(2).contains("StringTermination(\"NullTerminated\")"),
                            c.name + "." + p.group(4));
                }
                c.properties.add(new String[] {p.group(3), p.group(4)});
            }
            classes.put(c.name, c);
        }
        return classes;
    }

    static UUID guidOf(MofClass c) {
        Matcher g = Pattern.compile("Guid\\(\"\\{([0-9a-f-]{36})\\}\"\\)").matcher(c.qualifiers);
        assertTrue(g.find(), c.name + " has a Guid");
        return UUID.fromString(g.group(1));
    }

    @Test
    void everyClassUsesTheQualifierFormOfMicrosoftsClassicSchemaSamples() {
        Map<String, MofClass> classes = parse(MofSchema.generate());
        assertEquals(46, classes.size(), classes.keySet().toString());
        for (MofClass c : classes.values()) {
            assertTrue(c.qualifiers.startsWith("dynamic: ToInstance, "), c.name + ": [" + c.qualifiers + "]");
        }
        for (String eventClass : new String[] {"Jetw_MethodCall", "Jetw_Method", "Jetw_Thread_V0"}) {
            assertTrue(classes.get(eventClass).qualifiers.contains("EventVersion(0)"),
                    eventClass + ": the writer's Class.Version, also of a cut event, is 0");
        }
        assertTrue(classes.get("Jetw_Thread").qualifiers.contains("EventVersion(" + JetwSchema.THREAD_VERSION + ")"),
                "the latest Thread version keeps the class name (Microsoft: older versions are renamed _Vn)");
        assertEquals(guidOf(classes.get("Jetw_Thread")), guidOf(classes.get("Jetw_Thread_V0")));
    }

    @Test
    void providerAndEventClassesCarryJetwSchemaGuids() {
        String mof = MofSchema.generate();
        assertTrue(mof.contains("#pragma namespace(\"\\\\\\\\.\\\\root\\\\wmi\")"), mof);
        Map<String, MofClass> classes = parse(mof);
        MofClass provider = classes.get("Jetw");
        assertNotNull(provider);
        assertEquals("EventTrace", provider.parent);
        assertEquals(JetwSchema.CONTROL_GUID, guidOf(provider));
        List<UUID> eventClassGuids = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of("Jetw_MethodCall", "Jetw_Method", "Jetw_Thread"));
        for (dev.jetw.etl.JvmEventSchema.EventClass c : dev.jetw.etl.JvmEventSchema.CLASSES) {
            names.add("Jetw_" + c.name);
        }
        names.add("Jetw_MethodExclusion");
        for (String name : names) {
            assertEquals("Jetw", classes.get(name).parent);
            eventClassGuids.add(guidOf(classes.get(name)));
        }
        assertEquals(JetwSchema.EVENT_CLASSES, eventClassGuids, "one MOF class per JetwSchema event class, same order");
    }

    /** The property list of the MOF class for (event class GUID, type). */
    static List<String[]> layout(Map<String, MofClass> classes, UUID classGuid, int type) {
        List<String[]> found = null;
        for (MofClass c : classes.values()) {
            MofClass parent = classes.get(c.parent);
            if (parent == null || !parent.qualifiers.contains("Guid") || c.parent.equals("EventTrace")
                    || !guidOf(parent).equals(classGuid) || c.parent.matches(".*_V\\d+")) {
                continue; // an older version (_Vn): the agent writes the latest
            }
            Matcher t = Pattern.compile("EventType[({]([0-9, ]+)[)}]").matcher(c.qualifiers);
            assertTrue(t.find(), c.name);
            for (String n : t.group(1).split(",")) {
                if (Integer.parseInt(n.trim()) == type) {
                    assertEquals(null, found, "one MOF class per event type");
                    found = c.properties;
                }
            }
        }
        assertNotNull(found, "MOF class for " + classGuid + " type " + type);
        return found;
    }

    @Test
    void mofLayoutsDecodeTheRealPayloads() {
        Map<String, MofClass> classes = parse(MofSchema.generate());
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Calls");
        new Calls().run();
        dev.jetw.api.Jetw.checkpoint("loose");
        AgentHarness.detach();
        int decoded = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (RecordingBackend.Event e : b.snapshot()) {
            UUID guid = JetwSchema.EVENT_CLASSES.get(e.classIndex);
            List<String[]> props = layout(classes, guid, e.type);
            ByteBuffer p = ByteBuffer.wrap(e.payload).order(ByteOrder.LITTLE_ENDIAN);
            for (String[] prop : props) {
                switch (prop[0]) {
                    case "uint32":
                        p.getInt();
                        break;
                    case "uint64":
                        p.getLong();
                        break;
                    case "string":
                        TraceModel.utf16z(p);
                        break;
                    default:
                        throw new AssertionError("unexpected MOF type " + prop[0]);
                }
            }
            assertEquals(e.payload.length, p.position(), "MOF layout consumes the whole payload of class " + guid + " type " + e.type);
            seen.add(e.classIndex + "/" + e.type);
            decoded++;
        }
        assertTrue(decoded > 20);
        // The runtime event classes: every layout of JvmEventSchema has its MOF type class with the same fields.
        for (dev.jetw.etl.JvmEventSchema.EventClass c : dev.jetw.etl.JvmEventSchema.CLASSES) {
            for (dev.jetw.etl.JvmEventSchema.Layout l : c.layouts) {
                List<String[]> props = layout(classes, c.guid, l.type);
                assertEquals(l.fields.size(), props.size(), c.name + " " + l.typeName);
                for (int i = 0; i < props.size(); i++) {
                    dev.jetw.etl.JvmEventSchema.Field f = l.fields.get(i);
                    assertEquals(f.type == dev.jetw.etl.JvmEventSchema.FieldType.STRING ? "string"
                            : f.type == dev.jetw.etl.JvmEventSchema.FieldType.U32 ? "uint32" : "uint64", props.get(i)[0], c.name + "." + f.name);
                }
            }
        }
        for (String kind : new String[] {"0/" + EventType.START, "0/" + EventType.END, "0/" + EventType.CHECKPOINT,
                "1/" + EventType.DC_START, "1/" + EventType.DC_END, "2/" + EventType.DC_START, "2/" + EventType.DC_END}) {
            assertTrue(seen.contains(kind), "the trace had event kind " + kind + ": " + seen);
        }
    }
}
