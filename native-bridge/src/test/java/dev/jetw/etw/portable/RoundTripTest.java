package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random events of every type, level and size (up to the maximum) written in each mode and read
 * back field by field, including records that end exactly at a buffer's end.
 */
class RoundTripTest {

    @TempDir
    Path dir;

    private static final class Sent {
        int type;
        int level;
        int classIndex;
        int instanceId;
        int parentClass;
        int parentInstanceId;
        byte[] payload;
    }

    @ParameterizedTest
    @CsvSource({"sequential,64", "sequential,8", "circular,8", "newfile,8", "buffering,8", "real-time,8"})
    void randomEventsReadBackIdentically(String mode, int bufferKb) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = TestSupport.uniqueName("rt-" + mode);
        Path file = dir.resolve(mode.equals("newfile") ? "trip_%d.etl" : "trip.etl");
        SessionConfig.Builder b = SessionConfig.builder().sessionName(name).bufferSizeKb(bufferKb)
                .minimumBuffers(4).maximumBuffers(4096).flushTimerSeconds(0);
        List<ByteBuffer> delivered = new CopyOnWriteArrayList<>();
        switch (mode) {
            case "circular":
                b.logFile(file).modes(LogFileMode.CIRCULAR).maximumFileSizeMb(64);
                break;
            case "newfile":
                b.logFile(file).modes(LogFileMode.NEWFILE).maximumFileSizeMb(1);
                break;
            case "buffering":
                b.logFile(file).modes(LogFileMode.BUFFERING).minimumBuffers(2048);
                break;
            case "real-time":
                b.modes(LogFileMode.REAL_TIME).realTimeWithoutConsumer(true);
                break;
            default:
                b.logFile(file);
        }
        etw.startSession(b.build());
        AutoCloseable consumer = mode.equals("real-time") ? etw.openRealTimeConsumer(name, buf -> {
            ByteBuffer copy = ByteBuffer.allocate(buf.remaining());
            copy.put(buf.duplicate());
            delivered.add(copy);
        }) : null;
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        List<UUID> classes = p.eventClassGuids();
        EventScratch s = p.newScratch();
        int max = p.maxPayloadBytes();
        assertEquals(Math.min(65535, bufferKb * 1024 - 0x48) - 0x48, max);
        Random r = new Random(bufferKb * 31L + mode.hashCode());
        List<Sent> sent = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            Sent e = new Sent();
            e.type = r.nextInt(10) == 0 ? 0x20 + r.nextInt(200) : r.nextInt(9);
            e.level = r.nextInt(6);
            e.classIndex = r.nextInt(3);
            boolean instance = r.nextBoolean();
            int size;
            switch (r.nextInt(6)) {
                case 0: size = 0; break;
                case 1: size = max; break; // the largest event
                case 2: size = max - r.nextInt(8); break;
                default: size = r.nextInt(Math.min(max, 3000) + 1);
            }
            e.payload = new byte[size];
            r.nextBytes(e.payload);
            e.instanceId = instance ? p.newInstanceId(s, e.classIndex) : 0;
            e.parentClass = instance && r.nextBoolean() ? r.nextInt(3) : -1;
            e.parentInstanceId = e.parentClass >= 0 ? 1 + r.nextInt(1000) : 0;
            s.payload(e.payload.length).put(e.payload);
            assertTrue(p.write(s, e.type, e.level, e.classIndex, e.instanceId, e.parentClass, e.parentInstanceId));
            sent.add(e);
        }
        SessionStats st = etw.stopSession(name);
        assertEquals(0, st.eventsLost());
        List<EtlLayoutCheck.Event> got = new ArrayList<>();
        if (consumer != null) {
            consumer.close();
            for (ByteBuffer buf : delivered) {
                got.addAll(EtlLayoutCheck.dataBuffer(buf, bufferKb * 1024));
            }
        } else if (mode.equals("newfile")) {
            for (int k = 1; Files.exists(dir.resolve("trip_" + k + ".etl")); k++) {
                got.addAll(EtlLayoutCheck.read(dir.resolve("trip_" + k + ".etl")).events());
            }
        } else {
            got.addAll(EtlLayoutCheck.read(file).events());
        }
        compare(mode, sent, got, classes);
        // The product's reader (dev.jetw.etl.EtlReader) reads the same events from the files.
        if (consumer == null) {
            List<EtlLayoutCheck.Event> viaReader = new ArrayList<>();
            if (mode.equals("newfile")) {
                for (int k = 1; Files.exists(dir.resolve("trip_" + k + ".etl")); k++) {
                    viaReader.addAll(ReaderCheck.events(dir.resolve("trip_" + k + ".etl")));
                }
            } else {
                viaReader.addAll(ReaderCheck.events(file));
            }
            compare(mode + " (EtlReader)", sent, viaReader, classes);
        }
    }

    private static void compare(String mode, List<Sent> sent, List<EtlLayoutCheck.Event> got, List<UUID> classes) {
        assertEquals(sent.size(), got.size(), mode);
        int tid = (int) Thread.currentThread().getId();
        for (int i = 0; i < sent.size(); i++) {
            Sent e = sent.get(i);
            EtlLayoutCheck.Event g = got.get(i);
            String at = mode + " event " + i;
            assertEquals(e.instanceId != 0 ? 0x15 : 0x14, g.headerType, at);
            assertEquals(e.type, g.type, at);
            assertEquals(e.level, g.level, at);
            assertEquals(0, g.version, at);
            assertEquals(classes.get(e.classIndex), g.classGuid, at);
            assertEquals(tid, g.threadId, at);
            assertEquals((int) ProcessHandle.current().pid(), g.processId, at);
            assertArrayEquals(e.payload, g.payload, at);
            if (e.instanceId != 0) {
                assertEquals(e.instanceId, g.instanceId, at);
                assertEquals(e.parentInstanceId, g.parentInstanceId, at);
                assertEquals(e.parentClass >= 0 ? classes.get(e.parentClass) : new UUID(0, 0), g.parentGuid, at);
            }
        }
    }
}
