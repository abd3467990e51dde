package dev.jetw.agent.core;

import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory backend for tests: records every event the provider writes, with the writing
 * thread, so tests check what the agent writes without any file format in between.
 */
public final class RecordingBackend implements EtwBackend {

    /** Runs inside every newScratch(): stands in for JDK code a real backend calls there. */
    public volatile Runnable onNewScratch;

    /** One written event. */
    public static final class Event {
        final long threadId;
        public final int type;
        public final int level;
        public final int classIndex;
        public final int instanceId;
        final int parentClassIndex;
        public final int parentInstanceId;
        public final byte[] payload;
        /** The System.nanoTime() reading given to writeAt/writeSmallAt; {@link #NO_CALLER_TIME} for a plain write (ETW stamps it). */
        public long callerNanoTime = NO_CALLER_TIME;

        Event(long threadId, int type, int level, int classIndex, int instanceId, int parentClassIndex, int parentInstanceId, byte[] payload) {
            this.threadId = threadId;
            this.type = type;
            this.level = level;
            this.classIndex = classIndex;
            this.instanceId = instanceId;
            this.parentClassIndex = parentClassIndex;
            this.parentInstanceId = parentInstanceId;
            this.payload = payload;
        }
    }

    public static final long NO_CALLER_TIME = Long.MIN_VALUE;

    public final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger instanceIds = new AtomicInteger();
    volatile boolean sessionRunning;
    volatile String sessionName;
    public volatile EnableListener listener;
    /** When set, every write throws it (the provider must swallow it). */
    public volatile RuntimeException writeFailure;
    volatile boolean failStart;
    /** When set, a write of an event class it accepts is refused as TraceEvent refuses one with no free buffer. */
    volatile java.util.function.IntPredicate noFreeBuffer;

    @Override
    public String name() {
        return "recording";
    }

    @Override
    public SessionStats startSession(SessionConfig config) throws EtwException {
        if (failStart) {
            throw new EtwException("StartTraceW", Win32Error.ACCESS_DENIED, "test refuses");
        }
        sessionRunning = true;
        sessionName = config.sessionName();
        return stats();
    }

    private SessionStats stats() {
        return new SessionStats(sessionName, null, 8, 8, 0, 0, 0, 0, 1);
    }

    @Override
    public SessionStats querySession(String name) {
        return sessionRunning ? stats() : null;
    }

    @Override
    public SessionStats flushSession(String name) {
        return stats();
    }

    @Override
    public SessionStats updateSession(SessionConfig config) {
        return stats();
    }

    @Override
    public SessionStats stopSession(String name) {
        boolean was = sessionRunning;
        sessionRunning = false;
        return was ? stats() : null;
    }

    @Override
    public List<String> listSessions() {
        return sessionRunning ? Collections.singletonList(sessionName) : Collections.emptyList();
    }

    @Override
    public ProviderBackend registerProvider(UUID controlGuid, List<UUID> eventClassGuids, EnableListener l) {
        listener = l;
        return new ProviderBackend() {
            @Override
            public EventScratch newScratch() {
                Runnable hook = onNewScratch;
                if (hook != null) {
                    hook.run();
                }
                return new EventScratch(ByteBuffer.allocate(64 * 1024)) { };
            }

            @Override
            public int newInstanceId(EventScratch scratch, int classIndex) {
                return instanceIds.incrementAndGet();
            }

            @Override
            public int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                             int parentClassIndex, int parentInstanceId) {
                RuntimeException f = writeFailure;
                if (f != null) {
                    throw f;
                }
                if (!sessionRunning) {
                    return Win32Error.INVALID_HANDLE;
                }
                java.util.function.IntPredicate full = noFreeBuffer;
                if (full != null && full.test(classIndex)) {
                    return Win32Error.NOT_ENOUGH_MEMORY;
                }
                ByteBuffer p = scratch.payload();
                byte[] bytes = new byte[p.position()];
                p.duplicate().flip().get(bytes);
                events.add(new Event(Thread.currentThread().getId(), type, level, classIndex, instanceId, parentClassIndex,
                        parentInstanceId, bytes));
                return Win32Error.SUCCESS;
            }

            @Override
            public int writeAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                               int instanceId, int parentClassIndex, int parentInstanceId) {
                int code = write(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId);
                if (code == Win32Error.SUCCESS) {
                    synchronized (events) {
                        events.get(events.size() - 1).callerNanoTime = nanoTime;
                    }
                }
                return code;
            }

            @Override
            public int writeSmallAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                                    int instanceId, int parentClassIndex, int parentInstanceId, long payload, int length) {
                ByteBuffer p = scratch.payload(length);
                for (int i = 0; i < length; i++) {
                    p.put((byte) (payload >>> (8 * i)));
                }
                return writeAt(scratch, nanoTime, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId);
            }

            @Override
            public int maxPayloadBytes() {
                return 64 * 1024 - 72;
            }

            @Override
            public void unregister() {
            }
        };
    }

    @Override
    public void enableProvider(String session, UUID controlGuid, int level, int flags) {
        listener.onEnable(level, flags, 1);
    }

    @Override
    public void disableProvider(String session, UUID controlGuid) {
        listener.onDisable();
    }

    public List<Event> snapshot() {
        synchronized (events) {
            return new ArrayList<>(events);
        }
    }
}
