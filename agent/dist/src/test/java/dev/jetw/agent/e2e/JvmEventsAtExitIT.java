package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.LastInstantGcApp;
import dev.jetw.etl.JvmEventSchema;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stop of JFR's stream at JVM exit (docs/jvm-events.md, "Stop"), in a child JVM of the JDK running the tests
 * (run the suite on 17 and on 25). JFR's own shutdown hook stops the recording and writes its final chunk; no flush
 * follows. Before the fix jetw waited for two flushes after its stop (on 25 its {@code RecordingStream.stop()} lost
 * the race with JFR's hook and left the stream unable to end), so a short job could wait up to 3 s at exit. Now the
 * stop waits for the stream to end after that final chunk and says so (with {@code verbose=true}); the check is on
 * that report, which names the condition that ended the wait, not on a duration.
 */
class JvmEventsAtExitIT {

    static final String APP = LastInstantGcApp.class.getName();
    static final String DELIVERED = "jetw: jvm events: stop at exit: the stream delivered JFR's final chunk and ended ";

    @TempDir
    Path temp;

    @Test
    void theStopAtExitEndsWithJfrsFinalChunkAndDeliversItsEvents() throws Exception {
        Path etl = temp.resolve("exit.etl");
        String options = "include=" + APP + ",jvm=gc,verbose=true,backend=portable,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(),
                LastInstantGcApp.class);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());

        // The stop's own report: it ended because the stream ended after JFR's final chunk, not at its time bound.
        List<String> reports = child.stderrLines().stream().filter(l -> l.startsWith("jetw: jvm events: stop at exit: ")).toList();
        assertEquals(1, reports.size(), child.toString());
        assertTrue(reports.get(0).startsWith(DELIVERED) && reports.get(0).endsWith(" ms after the stop began"), reports.get(0));
        String exitLine = child.stderrLines().stream().filter(l -> l.contains(" events written, ")).findFirst().orElseThrow();
        assertFalse(exitLine.contains("jvm events"), "nothing given up: " + exitLine);

        // What the final chunk held: the System.gc of main's last instant, inside lastInstant().
        TraceFile calls = TraceFile.read(etl);
        int id = calls.methodId(APP, "lastInstant");
        List<TraceFile.Call> call = calls.calls.stream().filter(c -> c.methodId() == id).toList();
        assertEquals(2, call.size(), "lastInstant() START and END: " + call);
        RuntimeTrace rt = RuntimeTrace.read(etl);
        List<RuntimeTrace.Span> pauses = rt.spans(JvmEventSchema.GC_PAUSE).stream()
                .filter(s -> s.start().timestamp() >= call.get(0).timestamp() && s.end().timestamp() <= call.get(1).timestamp()).toList();
        assertFalse(pauses.isEmpty(), "the GC pause of lastInstant() (JFR's final chunk): " + rt.events);
    }
}
