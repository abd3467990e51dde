package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** Shared test helpers: unique session names, a provider per test, numbered events. */
final class TestSupport {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private TestSupport() {
    }

    /**
     * Whether the file store of {@code p} has POSIX permissions: not NTFS, where
     * Files.getPosixFilePermissions throws UnsupportedOperationException (the Windows CI job).
     */
    static boolean posix(java.nio.file.Path p) throws java.io.IOException {
        return java.nio.file.Files.getFileStore(p).supportsFileAttributeView(java.nio.file.attribute.PosixFileAttributeView.class);
    }

    /** {@code p}'s permissions are {@code expected} ("rw-------") where the file store has POSIX permissions; elsewhere nothing to check. */
    static void assertPermissionsWherePosix(String expected, java.nio.file.Path p) throws java.io.IOException {
        if (posix(p)) {
            org.junit.jupiter.api.Assertions.assertEquals(expected,
                    java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p)), p.toString());
        }
    }

    static String uniqueName(String prefix) {
        return prefix + "-" + ProcessIds.current() + "-" + COUNTER.incrementAndGet();
    }

    static List<UUID> classes() {
        return Arrays.asList(UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID());
    }

    /** Registers a provider with fresh GUIDs and enables it into {@code session} at verbose. */
    static ClassicProvider enabledProvider(EtwBackend backend, String session) throws EtwException {
        ClassicProvider p = ClassicProvider.register(backend, UUID.randomUUID(), classes());
        backend.enableProvider(session, p.controlGuid(), TraceLevel.VERBOSE, 0);
        return p;
    }

    /** An instance START event whose payload is {@code stream}, {@code seq} and {@code filler} bytes. */
    static boolean emit(ClassicProvider p, EventScratch s, int stream, int seq, int filler) {
        ByteBuffer b = s.payload(8 + filler);
        b.putInt(stream).putInt(seq);
        for (int i = 0; i < filler; i++) {
            b.put((byte) i);
        }
        int id = p.newInstanceId(s, 0);
        return p.write(s, EventType.START, TraceLevel.INFORMATION, 0, id, -1, 0);
    }

    /** Polls {@code condition} until true or fails after {@code seconds} (a deadline, not a timing assertion). */
    static void await(BooleanSupplier condition, int seconds, String what) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    static int headerBuffersWritten(Path file) {
        try {
            if (!Files.exists(file) || Files.size(file) < 0x90) {
                return 0;
            }
            byte[] b = new byte[0x90];
            try (java.io.InputStream in = Files.newInputStream(file)) {
                int n = 0;
                while (n < b.length) {
                    int r = in.read(b, n, b.length - n);
                    if (r < 0) {
                        return 0;
                    }
                    n += r;
                }
            }
            return ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(0x8C);
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
