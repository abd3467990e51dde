package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EtlFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Stack keys built record by record: a key defined, deleted and reused for another stack resolves each
 * reference to the definition that follows it; a reference whose key is never defined after it is
 * counted unresolved; definitions logged out of time order (per-buffer order) still join.
 */
class StackKeysTest {

    @TempDir
    Path tmp;

    private final EtlFixtureBuilder b = new EtlFixtureBuilder();

    private static byte[] reference(long eventTime, int pid, int tid, long key) {
        ByteBuffer p = le(24);
        p.putLong(eventTime).putInt(pid).putInt(tid).putLong(key);
        return p.array();
    }

    private static byte[] definition(long key, long... frames) {
        ByteBuffer p = le(8 + 8 * frames.length);
        p.putLong(key);
        for (long f : frames) {
            p.putLong(f);
        }
        return p.array();
    }

    private List<KernelEvent> read() throws IOException {
        return FixtureRecords.kernelEvents(b, tmp);
    }

    @Test
    void aReusedKeyResolvesToTheDefinitionAfterEachReferenceAndAMissingOneIsCounted() throws IOException {
        long t = b.anchor;
        long key = 0xfffffa8000001000L;
        int sw = 0x18;
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 37, 0, 0, t + 10, reference(t + 9, 4, 100, key)));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 38, 0, 0, t + 11, reference(t + 9, 4, 100, 0x77L)));
        // Logged out of time order, as buffers of different CPUs are: the reuse's delete comes first in the file.
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 35, 0, 0, t + 40, definition(key, 0xB1, 0xB2)));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 35, 0, 0, t + 20, definition(key, 0xA1, 0xA2, 0xA3)));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 37, 0, 0, t + 30, reference(t + 29, 4, 100, key)));
        b.record(systemLike(EtlFormat.HT_PERFINFO64, 2, sw, 37, 0, 0, t + 50, reference(t + 49, 4, 100, key)));
        List<KernelEvent> events = read();
        StackKeys keys = new StackKeys();
        events.forEach(keys::accept);
        assertEquals(2, keys.definitionCount());
        assertEquals("StackKeyKernel", events.get(0).eventName());
        assertEquals("StackKeyUser", events.get(1).eventName());
        assertEquals("KeyDelete", events.get(2).eventName());
        assertArrayEquals(new long[]{0xA1, 0xA2, 0xA3}, keys.resolve(events.get(0)), "the first definition after it");
        assertNull(keys.resolve(events.get(1)), "key 0x77 is never defined");
        assertArrayEquals(new long[]{0xB1, 0xB2}, keys.resolve(events.get(4)), "the reuse after the first delete");
        assertNull(keys.resolve(events.get(5)), "no definition after the last reference");
        assertNull(keys.resolve(events.get(2)), "a definition is not a reference");
        assertFalse(StackKeys.isReference(events.get(2)));
        assertEquals(2, keys.resolved());
        assertEquals(2, keys.unresolved());
    }
}
