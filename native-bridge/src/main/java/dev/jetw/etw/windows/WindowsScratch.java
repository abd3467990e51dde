package dev.jetw.etw.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etw.EventScratch;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One writing thread's native event memory, allocated once, laid out as:
 * <pre>
 *   0                EVENT_INSTANCE_HEADER (56) + one MOF_FIELD (16)      for TraceEventInstance
 *   72               EVENT_INSTANCE_INFO (this invocation)
 *   72 + ii          EVENT_INSTANCE_INFO (the parent invocation)
 *   72 + 2*ii        EVENT_TRACE_HEADER (48) + one MOF_FIELD (16)         for TraceEvent (plain events)
 * </pre>
 * and, in a block of its own, the payload, which the MOF_FIELDs point at: 256 bytes at first, grown
 * (a new block) the first time the thread writes a larger payload, up to 64 KB.
 * ii = sizeof(EVENT_INSTANCE_INFO): 16 on x64, 8 on x86. The Pointers and the header view are
 * made here, once, so that a write creates no object.
 */
final class WindowsScratch extends EventScratch {

    static final int INSTANCE_HEADER = 0;
    static final int INSTANCE_MOF = EtwLayout.EVENT_INSTANCE_HEADER_SIZE;

    final Memory memory;
    /** Little-endian view of everything before the payload (headers, MOF fields, instance infos). */
    final ByteBuffer headers;
    final int instanceInfo;
    final int parentInfo;
    final int traceHeader;
    final int traceMof;
    final Pointer instanceHeaderPtr;
    final Pointer instanceInfoPtr;
    final Pointer parentInfoPtr;
    final Pointer traceHeaderPtr;
    /** The payload's native memory (it grows, see EventScratch.payload(int)); the MOF fields point at it. */
    private Memory payloadMemory;
    /** Its address, written into the MOF field of every event. */
    long payloadAddress;

    private WindowsScratch(Memory memory, Memory payload, EtwLayout layout) {
        super(payload.getByteBuffer(0, payload.size()));
        this.memory = memory;
        this.payloadMemory = payload;
        this.payloadAddress = Pointer.nativeValue(payload);
        int ii = layout.instanceInfoSize();
        this.instanceInfo = INSTANCE_MOF + EtwLayout.MOF_FIELD_SIZE;
        this.parentInfo = instanceInfo + ii;
        this.traceHeader = parentInfo + ii;
        this.traceMof = traceHeader + EtwLayout.EVENT_TRACE_HEADER_SIZE;
        this.headers = memory.getByteBuffer(0, headerBytes(layout)).order(ByteOrder.LITTLE_ENDIAN);
        this.instanceHeaderPtr = memory.share(INSTANCE_HEADER);
        this.instanceInfoPtr = memory.share(instanceInfo);
        this.parentInfoPtr = memory.share(parentInfo);
        this.traceHeaderPtr = memory.share(traceHeader);
    }

    static WindowsScratch allocate(EtwLayout layout) {
        Memory m = new Memory(headerBytes(layout));
        m.clear();
        Memory payload = new Memory(INITIAL_PAYLOAD);
        payload.clear();
        return new WindowsScratch(m, payload, layout);
    }

    /** A larger payload in new native memory; the old block is freed when it is collected. */
    @Override
    protected ByteBuffer newPayload(int capacity) {
        Memory grown = new Memory(capacity);
        grown.clear();
        payloadMemory = grown;
        payloadAddress = Pointer.nativeValue(grown);
        return grown.getByteBuffer(0, capacity);
    }

    /** Headers, MOF fields and two instance infos. */
    static int headerBytes(EtwLayout layout) {
        return EtwLayout.EVENT_INSTANCE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE + 2 * layout.instanceInfoSize()
                + EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE;
    }
}
