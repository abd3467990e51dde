package dev.jetw.agent.core.session;

import dev.jetw.agent.core.RecordingBackend;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The stop line and status count as written only what reached the file: emitted = written + in buffers + dropped + lost. */
class EventOutcomesTest {

    private static ClassicProvider providerWith(int accepted, int refused) throws Exception {
        RecordingBackend backend = new RecordingBackend();
        backend.startSession(dev.jetw.etw.SessionConfig.builder().sessionName("s").logFile(java.nio.file.Paths.get("unused.etl")).build());
        ClassicProvider p = ClassicProvider.register(backend, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        p.onEnable(5, 0, 1);
        EventScratch s = p.newScratch();
        for (int i = 0; i < accepted; i++) {
            p.writeSmall(s, EventType.START, 4, 0, i + 1, -1, 0, i, 4);
        }
        backend.writeFailure = new IllegalStateException("refused");
        for (int i = 0; i < refused; i++) {
            p.writeSmall(s, EventType.START, 4, 0, i + 1, -1, 0, i, 4);
        }
        return p;
    }

    @Test
    void aFullDiskCountsTheUnwrittenBuffersAsLostNotWritten() throws Exception {
        ClassicProvider p = providerWith(10, 3);
        SessionStats st = new SessionStats("s", "f.etl", 8, 8, 9, 2, 1, 0, 1)
                .withOutcomes(4, 3, 6, "No space left on device (ENOSPC) writing f.etl");
        EventOutcomes o = new EventOutcomes(p, st);
        assertEquals("4 events written, 3 dropped, 6 lost of 13 emitted", o.line());
        assertEquals(o.emitted, o.written + o.inBuffers + o.dropped + o.lost);
        assertEquals("No space left on device (ENOSPC) writing f.etl", o.writeError);
    }

    @Test
    void eventsNotYetWrittenAreShownAsInBuffers() throws Exception {
        ClassicProvider p = providerWith(10, 0);
        EventOutcomes o = new EventOutcomes(p, new SessionStats("s", "f.etl", 8, 7, 0, 1, 0, 0, 1).withOutcomes(7, 0, 0, null));
        assertEquals("7 events written, 0 dropped, 0 lost of 10 emitted (3 still in buffers)", o.line());
    }

    @Test
    void withoutPerEventOutcomesLostBuffersMakeLostUnknownNotZero() throws Exception {
        ClassicProvider p = providerWith(10, 0);
        EventOutcomes o = new EventOutcomes(p, new SessionStats("s", "f.etl", 8, 8, 0, 1, 2, 0, 1));
        assertEquals("10 events written, 0 dropped, unknown (2 buffers not written) lost of 10 emitted", o.line());
    }
}
