package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlLogfileHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static dev.jetw.analysis.cli.EtlToolTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A merged trace, jetw's events ({@link JetwTraceFixture}) next to kernel events (context switches of
 * the same threads, a disk read): every command reads it, jetw's views are unchanged by the kernel
 * events, and the kernel events are named and decoded.
 */
class MergedTraceTest {

    @TempDir
    Path tmp;

    /** The jetw fixture plus one buffer (sequence 10) of kernel events, as a kernel logger merged in would add. */
    static byte[] merged() {
        byte[] jetw = JetwTraceFixture.build();
        EtlFixtureBuilder k = new EtlFixtureBuilder();
        ByteBuffer cs = le(24).putInt(11).putInt(12).putLong(0).putInt(0).putInt(0);
        cs.put(8 + 4, (byte) 6); // OldThreadWaitReason: UserRequest
        k.record(systemLike(EtlFormat.HT_COMPACT64, 2, 0x05, 36, 0, 0, JetwTraceFixture.ts(k, 1.5), cs.array()));
        k.record(systemLike(EtlFormat.HT_COMPACT64, 2, 0x05, 36, 0, 0, JetwTraceFixture.ts(k, 2.5),
                le(24).putInt(12).putInt(11).array()));
        k.record(systemLike(EtlFormat.HT_SYSTEM64, 3, 0x01, 10, 0, 4, JetwTraceFixture.ts(k, 4.0),
                le(56).putInt(0).putInt(0).putInt(4096).putInt(0).putLong(8192).putLong(1).putLong(2).putLong(30_000)
                        .putInt(11).array()));
        byte[] kernel = k.build();
        int size = k.bufferSize;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(jetw);
        byte[] buffer = Arrays.copyOfRange(kernel, size, 2 * size);
        ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN).putLong(EtlFormat.BH_SEQUENCE_NUMBER, 10);
        out.writeBytes(buffer);
        byte[] file = out.toByteArray();
        // The header counts the buffers, the appended one too (the reader checks it against the file).
        ByteBuffer header = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(EtlLogfileHeader.FILE_OFF_BUFFERS_WRITTEN, header.getInt(EtlLogfileHeader.FILE_OFF_BUFFERS_WRITTEN) + 1);
        return file;
    }

    private Path file(String name, byte[] bytes) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    @Test
    void everyCommandReadsJetwAndKernelEventsTogether() throws IOException {
        Path jetwOnly = file("jetw.etl", JetwTraceFixture.build());
        Path merged = file("merged.etl", merged());

        EtlToolTest.Run tree = run("tree", merged.toString());
        assertEquals(run("tree", jetwOnly.toString()).out().replace(jetwOnly.toString(), merged.toString()), tree.out());
        assertEquals(0, tree.status(), tree.err());

        Path a = tmp.resolve("a.json");
        Path b = tmp.resolve("b.json");
        run("chrome-trace", "-o", a.toString(), jetwOnly.toString());
        EtlToolTest.Run chrome = run("chrome-trace", "-o", b.toString(), merged.toString());
        assertEquals(0, chrome.status(), chrome.err());
        assertEquals(MiniJson.object(Files.readString(a)).get("traceEvents"),
                MiniJson.object(Files.readString(b)).get("traceEvents"), "kernel events add nothing to jetw's timeline");

        EtlToolTest.Run dump = run("dump", merged.toString());
        assertEquals(run("dump", jetwOnly.toString()).lines().size() + 3, dump.lines().size());
        assertTrue(dump.out().contains("Thread Thread/CSwitch level 0  newThreadId=11 oldThreadId=12"), dump.out());
        assertTrue(dump.out().contains("DiskIo/Read level 0  diskNumber=0 irpFlags=0 transferSize=4096"), dump.out());
        assertTrue(dump.out().contains("MethodCall START"), dump.out());
        EtlToolTest.Run json = run("dump", "--json", merged.toString());
        Map<String, Object> cswitch = json.lines().stream().map(MiniJson::object)
                .filter(o -> "Thread/CSwitch".equals(o.get("typeName"))).findFirst().orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> kernel = (Map<String, Object>) cswitch.get("kernel");
        assertEquals("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", kernel.get("classGuid"));
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) kernel.get("fields");
        assertEquals(11L, ((Number) fields.get("newThreadId")).longValue());
        assertEquals(6L, ((Number) fields.get("oldThreadWaitReason")).longValue());

        EtlToolTest.Run summary = run("summary", "--json", merged.toString());
        Map<String, Object> s = MiniJson.object(summary.out());
        assertEquals(Map.of("Thread/CSwitch", 2L, "DiskIo/Read", 1L), longs(s.get("kernelEvents")));
        assertEquals(6L, ((Number) s.get("callStarts")).longValue());
        assertEquals(4L, ((Number) s.get("callEnds")).longValue());
        // Two calls were still running at stop: unbalanced START/END is listed, exit 3 (incomplete).
        assertEquals(EtlTool.INCOMPLETE, summary.status());
        assertEquals(List.of("unbalanced jetw calls: 6 START and 4 END events (2 calls without END: still running at"
                + " stop, or their END was lost)"), s.get("problems"));
        assertTrue(summary.err().endsWith("unbalanced jetw calls: 6 START and 4 END events (2 calls without END: still"
                + " running at stop, or their END was lost)\n"), summary.err());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> longs(Object o) {
        Map<String, Long> m = new java.util.TreeMap<>();
        ((Map<String, Object>) o).forEach((k, v) -> m.put(k, ((Number) v).longValue()));
        return m;
    }
}
