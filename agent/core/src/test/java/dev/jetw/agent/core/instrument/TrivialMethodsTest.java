package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.AgentHarness;
import dev.jetw.agent.core.RecordingBackend;
import dev.jetw.agent.core.TraceModel;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Tiny;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * trivial=skip (the default): getters, setters and constant returns of classes a wildcard rule takes whole are not
 * instrumented, and the status and the trace say so; a rule naming the class or the method traces them.
 */
class TrivialMethodsTest {

    @TempDir
    Path dir;

    @AfterEach
    void detach() {
        AgentHarness.detachQuietly();
    }

    private static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void findsGettersSettersConstantsAndTestsButNotCallsLoopsOrLocks() throws IOException {
        assertEquals(new TreeSet<>(Arrays.asList("value()I", "set(I)V", "seven()I", "positive()Z", "sign(I)I")),
                new TreeSet<>(TrivialMethods.of(classFile(Tiny.class))));
    }

    @Test
    void anUnreadableClassFileHasNoTrivialMethods() {
        assertTrue(TrivialMethods.of(new byte[] {1, 2, 3}).isEmpty());
    }

    /** Runs every method of Tiny under {@code options}; returns the simple names of the methods that wrote a START. */
    private static Set<String> tracedMethods(RecordingBackend b) {
        List<Integer> started = new ArrayList<>();
        Set<String> traced = new HashSet<>();
        java.util.Map<Integer, String> names = new java.util.HashMap<>();
        for (RecordingBackend.Event e : b.snapshot()) {
            ByteBuffer p = ByteBuffer.wrap(e.payload).order(ByteOrder.LITTLE_ENDIAN);
            if (e.classIndex == JetwSchema.METHOD_INDEX && e.type == EventType.DC_START) {
                int id = p.getInt();
                TraceModel.utf16z(p);
                names.put(id, TraceModel.utf16z(p));
            } else if (e.classIndex == JetwSchema.METHOD_CALL_INDEX && e.type == EventType.START) {
                started.add(p.getInt());
            }
        }
        for (int id : started) {
            traced.add(names.get(id));
        }
        return traced;
    }

    private static long runTiny() {
        Tiny t = new Tiny();
        t.set(3);
        return t.value() + Tiny.seven() + t.withCall() + t.withLoop(3) + t.locked() + (t.positive() ? 1 : 0) + t.sign(2);
    }

    private static List<String> trivialRecords(RecordingBackend b) {
        List<String> reasons = new ArrayList<>();
        for (RecordingBackend.Event e : b.snapshot()) {
            if (e.classIndex == JetwSchema.METHOD_EXCLUSION_INDEX) {
                ByteBuffer p = ByteBuffer.wrap(e.payload).order(ByteOrder.LITTLE_ENDIAN);
                assertEquals(0, p.getInt(), "names no method");
                p.position(20);
                reasons.add(TraceModel.utf16z(p));
            }
        }
        return reasons;
    }

    @Test
    void trivialMethodsAreSkippedAndReportedInStatusAndTrace() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Tin*,adaptive=false");
        long sum = runTiny();
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        assertEquals(new HashSet<>(Arrays.asList("withCall", "withLoop", "locked")), tracedMethods(b), "sum " + sum);
        assertTrue(status.contains("3 instrumented, 0 left out") && status.contains("5 trivial not instrumented"), status);
        assertEquals(Arrays.asList(JetwSchema.EXCLUSION_TRIVIAL + "5 methods of rule testapp.Tin*@4 not instrumented"), trivialRecords(b));
    }

    @Test
    void trivialTraceInstrumentsThemAll() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Tin*,adaptive=false,trivial=trace");
        runTiny();
        AgentHarness.detach();
        assertEquals(new HashSet<>(Arrays.asList("value", "set", "seven", "positive", "sign", "withCall", "withLoop", "locked")), tracedMethods(b));
        assertEquals(new ArrayList<String>(), trivialRecords(b), "nothing left out, nothing reported");
    }

    @Test
    void aRuleNamingTheClassTracesAllItsMethods() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Tiny,adaptive=false");
        runTiny();
        AgentHarness.detach();
        assertEquals(new HashSet<>(Arrays.asList("value", "set", "seven", "positive", "sign", "withCall", "withLoop", "locked")), tracedMethods(b));
    }

    @Test
    void aRuleNamingTheMethodTracesItEvenIfTrivial() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Tiny#value;testapp.Tiny#withCall,adaptive=false");
        runTiny();
        AgentHarness.detach();
        assertEquals(new HashSet<>(Arrays.asList("value", "withCall")), tracedMethods(b));
    }
}
