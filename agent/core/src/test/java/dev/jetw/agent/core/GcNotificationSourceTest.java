package dev.jetw.agent.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java 8-16 path, which is also the fallback when JFR cannot start: here the JFR part is not on the
 * class path (it is the agent/jfr module), so the agent says so in one line and the gc family comes
 * from the GC MXBeans' notifications: a System.gc() gives a JvmGc START/END and heap INFOs whose
 * payloads decode with JvmEventSchema.
 */
class GcNotificationSourceTest {

    @TempDir
    Path dir;

    @AfterEach
    void detach() {
        AgentHarness.detachQuietly();
    }

    @Test
    void withoutJfrTheGcFamilyComesFromTheNotificationsAndOneLineSaysWhatIsMissing() throws Exception {
        RecordingBackend b = new RecordingBackend();
        String reply = AgentHarness.attach(b, dir, "include=testapp.Calls,jvm=gc,park");
        // JFR starts on the agent's own thread after the start returned (issue 31): its failure and the fall-back
        // to the GC notifications are decided there, and status says so. The reply is written after the attach
        // ramp: either JFR is still starting, or the reply names the fall-back and its reason.
        assertTrue(reply.contains("jvm events gc,park (JFR), starting on a background thread")
                || reply.contains("jvm events gc (GC notifications)\njetw: jvm=gc,park: JFR streaming failed"), reply);
        String status = AgentMain.control("status", null);
        for (int i = 0; i < 600 && status.contains("JFR still starting"); i++) {
            Thread.sleep(50);
            status = AgentMain.control("status", null);
        }
        assertTrue(status.contains("jvm events:          gc (GC notifications)"), status);
        assertTrue(status.contains("; jetw: jvm=gc,park: JFR streaming failed (ClassNotFoundException: dev.jetw.agent.jfr.JfrEventSource); "
                + "gc events come from the GC MXBeans, no park events, method tracing goes on"), status);

        System.gc();
        // Notifications arrive on the JVM's notification thread shortly after the collection: wait for them.
        List<RecordingBackend.Event> gc = List.of();
        for (int i = 0; i < 200 && gc.size() < 4; i++) {
            Thread.sleep(50);
            gc = b.snapshot().stream().filter(e -> e.classIndex == JetwSchema.JVM_GC_INDEX).collect(Collectors.toList());
        }
        AgentHarness.detach();
        assertTrue(gc.size() >= 4, "heap before, START, END, heap after: " + gc.size());
        RecordingBackend.Event start = gc.stream().filter(e -> e.type == EventType.START).findFirst().orElse(null);
        assertNotNull(start);
        Object[] v = JvmEventSchema.GC.layout(EventType.START).decode(start.payload);
        assertNotNull(v, "START decodes");
        assertTrue(((String) v[4]).contains("System.gc"), "cause " + v[4]);
        for (RecordingBackend.Event e : gc) {
            assertNotNull(JvmEventSchema.GC.layout(e.type).decode(e.payload), "type " + e.type + " decodes");
            assertTrue(e.threadId != 0, "written by the notification thread");
        }
    }
}
