package dev.jetw.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The README's main command end to end: runs {@code samples/demo.sh} (what {@code ./jetw demo} runs),
 * without its build step because the test command has just built everything, then checks what it
 * printed and reads the trace it wrote back with the project's reader.
 */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "demo.sh is a bash script; on Windows the backend is real ETW")
class DemoIT {
    private static final String ORDERS = "dev.jetw.samples.orders.";
    private static final long DEMO_TIMEOUT_MINUTES = 10;

    @Test
    void demoTracesTwoHundredOrdersAndPrintsSummarySlowestTreeAndPerfettoFile() throws Exception {
        Path repo = Paths.get(System.getProperty("jetw.repo.dir", "..")).toAbsolutePath().normalize();
        String out = runDemo(repo);

        assertTrue(out.contains("Processed 200 orders"), out);
        assertTrue(out.contains(": 177 ok, 13 rejected"), out);
        assertTrue(out.contains(", 10 failed"), out);

        Matcher summary = Pattern.compile("== Trace summary \\((.+\\.etl)\\)").matcher(out);
        assertTrue(summary.find(), "no summary header in:\n" + out);
        Path etl = Paths.get(summary.group(1));
        Matcher pf = Pattern.compile("== Perfetto trace: (.+\\.pftrace)").matcher(out);
        assertTrue(pf.find(), "no .pftrace path in:\n" + out);
        Path pftrace = Paths.get(pf.group(1));
        Matcher json = Pattern.compile("== The same as Trace Event Format JSON .*: (.+\\.json)").matcher(out);
        assertTrue(json.find(), "no Perfetto JSON path in:\n" + out);
        Path perfetto = Paths.get(json.group(1));
        try {
            assertTrue(etl.startsWith(repo.resolve("traces")), "the trace goes to <repo>/traces: " + etl);
            assertTrue(out.contains("events:"), "the summary counts events:\n" + out);
            int tree = out.indexOf("== Call tree of the slowest request");
            assertTrue(tree >= 0 && out.indexOf("slowest top-level call:", tree) > tree, out);
            assertTrue(out.indexOf("? why (ms): children ", tree) > tree, "the slowest call's breakdown is shown:\n" + out);
            assertTrue(out.indexOf("dev.jetw.samples.", tree) > tree, "the slowest tree names the sample's methods:\n" + out);
            assertTrue(out.indexOf("-> queued ", tree) > tree && out.indexOf("on order-worker-", tree) > tree,
                    "the slowest request is followed across threads to its worker:\n" + out);

            String chrome = new String(Files.readAllBytes(perfetto), StandardCharsets.UTF_8);
            assertTrue(chrome.startsWith("{\"traceEvents\":["), "Chrome trace-event JSON expected");
            assertTrue(chrome.contains("OrderTask.run"), "the JSON holds the request spans");
            assertTrue(chrome.contains("\"cat\":\"jetw.handoff\",\"ph\":\"f\""), "the JSON draws hand-off arrows to the workers");
            byte[] proto = Files.readAllBytes(pftrace);
            assertTrue(proto.length > 0 && proto[0] == 0x0A, "a Perfetto Trace starts with packet field 1");
            assertTrue(new String(proto, StandardCharsets.ISO_8859_1).contains("OrderTask.run"),
                    "the .pftrace names the request slices");
            String protoText = new String(proto, StandardCharsets.ISO_8859_1);
            assertTrue(protoText.contains("jetw.task") && protoText.contains("queueWaitNs"),
                    "the .pftrace has the workers' task slices (the ends of the hand-off flows), their queue wait annotated");

            checkTrace(etl);
        } finally {
            Files.deleteIfExists(etl);
            Files.deleteIfExists(perfetto);
            Files.deleteIfExists(pftrace);
        }
    }

    /** Reads the .etl back: every call closed on its own thread, nested in its parent, and the sample's counts. */
    private static void checkTrace(Path etl) throws IOException {
        Map<Integer, String> methods = new HashMap<>();
        Map<Integer, Call> calls = new HashMap<>();
        Map<String, Integer> checkpoints = new HashMap<>();
        // Cross-thread links (docs/cross-thread.md): DEQUEUE instance -> {its thread, the submitting call's instance}.
        Map<Integer, int[]> dequeues = new HashMap<>();
        try (EtlReader reader = EtlReader.open(etl)) {
            for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                if (JetwSchema.METHOD_CLASS.equals(r.guid()) && r.type() == EventType.DC_START) {
                    ByteBuffer p = payload(r);
                    int id = p.getInt();
                    methods.put(id, utf16z(p) + "#" + utf16z(p));
                } else if (JetwSchema.METHOD_CALL_CLASS.equals(r.guid())) {
                    ByteBuffer p = payload(r);
                    int methodId = p.getInt();
                    if (r.type() == EventType.START) {
                        Call previous = calls.put(r.instanceId(), new Call(methodId, r));
                        assertEquals(null, previous, "instance id " + r.instanceId() + " started twice");
                    } else if (r.type() == EventType.END) {
                        Call call = calls.get(r.instanceId());
                        assertNotNull(call, "END without START, instance " + r.instanceId());
                        assertEquals(call.methodId, methodId, "END names another method than its START");
                        assertEquals(call.threadId, r.threadId(), "a call ends on the thread it started on");
                        assertEquals(-1L, call.end, "instance " + r.instanceId() + " ended twice");
                        call.end = r.rawTimestamp();
                        call.exception = utf16z(p);
                    } else if (r.type() == EventType.CHECKPOINT) {
                        checkpoints.merge(utf16z(p), 1, Integer::sum);
                    } else if (r.type() == EventType.DEQUEUE) {
                        dequeues.put(r.instanceId(), new int[] {r.threadId(), r.parentInstanceId()});
                    }
                }
            }
        }
        Map<String, Integer> started = new HashMap<>();
        Map<String, Integer> threw = new HashMap<>();
        for (Call call : calls.values()) {
            if (call.end < 0) {
                fail("a call without END (" + methods.get(call.methodId) + ")");
            }
            int[] task = dequeues.get(call.parent);
            if (task != null) {
                // A task handed over from a call on another thread: its DEQUEUE is on the task's thread.
                assertEquals(task[0], call.threadId, "the DEQUEUE is on the task's thread");
                Call submitter = calls.get(task[1]);
                assertNotNull(submitter, "the submitting call of a " + methods.get(call.methodId) + " task is in the trace");
                assertEquals("dev.jetw.samples.gateway.OrderWorkerPool#submitOrder", methods.get(submitter.methodId));
                assertTrue(submitter.threadId != call.threadId, "handed to another thread");
            } else if (call.parent != 0) {
                Call parent = calls.get(call.parent);
                assertNotNull(parent, "the parent of a " + methods.get(call.methodId) + " call is not in the trace");
                assertEquals(parent.threadId, call.threadId, "the parent is on the same thread");
                assertTrue(parent.start <= call.start && call.end <= parent.end, "a call lies inside its parent");
            }
            String name = methods.get(call.methodId);
            assertNotNull(name, "method id " + call.methodId + " has no rundown");
            started.merge(name, 1, Integer::sum);
            if (!call.exception.isEmpty()) {
                threw.merge(name + " threw " + call.exception, 1, Integer::sum);
            }
        }
        assertEquals(200, started.get("dev.jetw.samples.gateway.OrderTask#run"), "one task per order");
        assertEquals(200, dequeues.size(), "each order task is linked to the intake call that submitted it");
        assertEquals(200, calls.values().stream().filter(c -> dequeues.containsKey(c.parent)
                && "dev.jetw.samples.gateway.OrderTask#run".equals(methods.get(c.methodId))).count(), "OrderTask.run under its DEQUEUE");
        assertEquals(177, started.get(ORDERS + "Journal#append"), "one journal line per accepted order");
        assertEquals(10, threw.get("dev.jetw.samples.gateway.OrderTask#run threw " + ORDERS + "PaymentDeclinedException"),
                "declined payments escape the task: " + threw);
        assertEquals(13, threw.get(ORDERS + "OrderValidator#validate threw " + ORDERS + "OrderRejectedException"),
                "rejections are thrown by validate: " + threw);
        assertEquals(null, threw.get("dev.jetw.samples.gateway.OrderTask#run threw " + ORDERS + "OrderRejectedException"),
                "rejections are handled inside the task");
        assertEquals(187, checkpoints.get("priced"), checkpoints.toString());
        assertEquals(177, checkpoints.get("journaled"), checkpoints.toString());
        assertEquals(13, checkpoints.get("rejected"), checkpoints.toString());
        assertEquals(10, checkpoints.get("order task failed"), checkpoints.toString());
    }

    private static String runDemo(Path repo) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", repo.resolve("samples/demo.sh").toString(), "--no-build")
                .directory(repo.toFile()).redirectErrorStream(true);
        // The demo and ./jetw run `java`: make it this JDK.
        String bin = System.getProperty("java.home") + File.separator + "bin";
        pb.environment().put("PATH", bin + File.pathSeparator + pb.environment().getOrDefault("PATH", ""));
        Process demo = pb.start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread pump = new Thread(() -> copy(demo.getInputStream(), output));
        pump.start();
        if (!demo.waitFor(DEMO_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
            demo.destroyForcibly();
            fail("demo.sh did not finish in " + DEMO_TIMEOUT_MINUTES + " minutes:\n" + output);
        }
        pump.join();
        String out = output.toString("UTF-8");
        assertEquals(0, demo.exitValue(), "demo.sh failed:\n" + out);
        return out;
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                synchronized (out) {
                    out.write(buf, 0, n);
                }
            }
        } catch (IOException ignored) {
            // The process ended.
        }
    }

    private static ByteBuffer payload(EtlRecord r) {
        return ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A NUL-terminated UTF-16LE string (JetwSchema); "" at the end of the payload. */
    private static String utf16z(ByteBuffer p) {
        StringBuilder s = new StringBuilder();
        while (p.remaining() >= 2) {
            char c = p.getChar();
            if (c == 0) {
                break;
            }
            s.append(c);
        }
        return s.toString();
    }

    private static final class Call {
        final int methodId;
        final int threadId;
        final int parent;
        final long start;
        long end = -1;
        String exception = "";

        Call(int methodId, EtlRecord start) {
            this.methodId = methodId;
            this.threadId = start.threadId();
            this.parent = start.parentInstanceId();
            this.start = start.rawTimestamp();
        }
    }
}
