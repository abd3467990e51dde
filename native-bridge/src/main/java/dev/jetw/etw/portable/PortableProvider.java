package dev.jetw.etw.portable;

import dev.jetw.etl.EncodedGuid;
import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.Win32Error;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** A registered classic provider (RegisterTraceGuids) of the portable backend. */
final class PortableProvider implements ProviderBackend {

    private static final int ID_BLOCK = 1024;
    private static final int DEFAULT_MAX_PAYLOAD =
            EtlFormat.maxPayload(64 * 1024, EtlFormat.INSTANCE_HEADER_SIZE);

    final UUID controlGuid;
    /** The event classes, encoded once: the write path copies them into every record. */
    final EncodedGuid[] classGuids;
    final EnableListener listener;
    private final PortableBackend backend;

    /** The backend instance that registered this provider: only its enables count (the Windows provider's own-session rule). */
    PortableBackend owner() {
        return backend;
    }
    private final AtomicInteger ids = new AtomicInteger(1);
    /** The session this provider logs to (one at a time, as for every classic provider), or null. */
    volatile PortableSession session;
    volatile boolean unregistered;

    PortableProvider(PortableBackend backend, UUID controlGuid, List<UUID> classGuids, EnableListener listener) {
        this.backend = backend;
        this.controlGuid = controlGuid;
        this.classGuids = new EncodedGuid[classGuids.size()];
        for (int i = 0; i < this.classGuids.length; i++) {
            this.classGuids[i] = EncodedGuid.of(classGuids.get(i));
        }
        this.listener = listener;
    }

    @Override
    public EventScratch newScratch() {
        return new PortableScratch();
    }

    @Override
    public void retire(EventScratch scratch) {
        PortableScratch s = (PortableScratch) scratch;
        PortableSession holder = s.registeredWith;
        if (holder != null) {
            holder.release(s);
        }
    }

    @Override
    public int newInstanceId(EventScratch scratch, int classIndex) {
        PortableScratch s = (PortableScratch) scratch;
        if (s.idOwner != this || s.nextId == s.idLimit) {
            int start;
            do {
                start = ids.getAndAdd(ID_BLOCK);
            } while (start <= 0 && start > -ID_BLOCK); // skip the block holding 0 after wrap-around
            s.idOwner = this;
            s.nextId = start;
            s.idLimit = start + ID_BLOCK;
        }
        int id = s.nextId++;
        return id == 0 ? s.nextId++ : id;
    }

    @Override
    public int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                     int parentClassIndex, int parentInstanceId) {
        ByteBuffer payload = scratch.payload();
        return append(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId,
                payload, 0L, payload.position());
    }

    @Override
    public int writeSmall(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                          int parentClassIndex, int parentInstanceId, long payload, int length) {
        if (!ProviderBackend.isSmallPayloadLength(length)) {
            return Win32Error.INVALID_PARAMETER; // more than the word's 8 bytes would misstate the record's size
        }
        return append(scratch, type, level, version, classIndex, instanceId, parentClassIndex, parentInstanceId,
                null, payload, length);
    }

    /** Into the session's reserved buffers, which no event competes for (see {@link PortableSession#writeReserved}). */
    @Override
    public int writeReserved(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                             int parentClassIndex, int parentInstanceId) {
        PortableSession s = session;
        if (s == null) {
            return Win32Error.INVALID_HANDLE;
        }
        if (classIndex < 0 || classIndex >= classGuids.length || parentClassIndex >= classGuids.length) {
            return Win32Error.INVALID_PARAMETER;
        }
        ByteBuffer payload = scratch.payload();
        return s.writeReserved(classGuids[classIndex], parentClassIndex < 0 ? EncodedGuid.ZERO : classGuids[parentClassIndex],
                type, level, version, instanceId, parentInstanceId, payload, payload.position());
    }

    @Override
    public int writeAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                       int instanceId, int parentClassIndex, int parentInstanceId) {
        ByteBuffer payload = scratch.payload();
        return append(scratch, nanoTime, type, level, version, classIndex, instanceId, parentClassIndex,
                parentInstanceId, payload, 0L, payload.position());
    }

    @Override
    public int writeSmallAt(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                            int instanceId, int parentClassIndex, int parentInstanceId, long payload, int length) {
        if (!ProviderBackend.isSmallPayloadLength(length)) {
            return Win32Error.INVALID_PARAMETER;
        }
        return append(scratch, nanoTime, type, level, version, classIndex, instanceId, parentClassIndex,
                parentInstanceId, null, payload, length);
    }

    private int append(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                       int parentClassIndex, int parentInstanceId, ByteBuffer payload, long payloadWord, int length) {
        return append(scratch, PortableSession.TIME_OF_CALL, type, level, version, classIndex, instanceId,
                parentClassIndex, parentInstanceId, payload, payloadWord, length);
    }

    private int append(EventScratch scratch, long nanoTime, int type, int level, int version, int classIndex,
                       int instanceId, int parentClassIndex, int parentInstanceId, ByteBuffer payload, long payloadWord,
                       int length) {
        PortableSession s = session;
        if (s == null) {
            return Win32Error.INVALID_HANDLE;
        }
        if (classIndex < 0 || classIndex >= classGuids.length || parentClassIndex >= classGuids.length) {
            return Win32Error.INVALID_PARAMETER;
        }
        EncodedGuid parent = parentClassIndex < 0 ? EncodedGuid.ZERO : classGuids[parentClassIndex];
        return s.write((PortableScratch) scratch, nanoTime, classGuids[classIndex], parent, type, level, version,
                instanceId, parentInstanceId, payload, payloadWord, length);
    }

    @Override
    public int maxPayloadBytes() {
        PortableSession s = session;
        return s == null ? DEFAULT_MAX_PAYLOAD : s.maxPayload;
    }

    @Override
    public void unregister() {
        backend.unregister(this);
    }
}
