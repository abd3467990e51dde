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
 *   payloadOffset    the payload (64 KB), which the MOF_FIELDs point at
 * </pre>
 * ii = sizeof(EVENT_INSTANCE_INFO): 16 on x64, 8 on x86. The Pointers and the header view are
 * made here, once, so that a write creates no object.
 */
final class WindowsScratch extends EventScratch {

    /** The largest event ETW accepts is 64 KB; the payload area never needs more. */
    static final int PAYLOAD_CAPACITY = 64 * 1024;

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
    final long payloadAddress;

    private WindowsScratch(Memory memory, EtwLayout layout) {
        super(memory.getByteBuffer(payloadOffset(layout), PAYLOAD_CAPACITY));
        this.memory = memory;
        int ii = layout.instanceInfoSize();
        this.instanceInfo = INSTANCE_MOF + EtwLayout.MOF_FIELD_SIZE;
        this.parentInfo = instanceInfo + ii;
        this.traceHeader = parentInfo + ii;
        this.traceMof = traceHeader + EtwLayout.EVENT_TRACE_HEADER_SIZE;
        this.headers = memory.getByteBuffer(0, payloadOffset(layout)).order(ByteOrder.LITTLE_ENDIAN);
        this.instanceHeaderPtr = memory.share(INSTANCE_HEADER);
        this.instanceInfoPtr = memory.share(instanceInfo);
        this.parentInfoPtr = memory.share(parentInfo);
        this.traceHeaderPtr = memory.share(traceHeader);
        this.payloadAddress = Pointer.nativeValue(memory) + payloadOffset(layout);
    }

    static WindowsScratch allocate(EtwLayout layout) {
        Memory m = new Memory(payloadOffset(layout) + PAYLOAD_CAPACITY);
        m.clear();
        return new WindowsScratch(m, layout);
    }

    /** Headers, MOF fields and two instance infos; a multiple of 8, so the payload is 8-aligned. */
    static int payloadOffset(EtwLayout layout) {
        return EtwLayout.EVENT_INSTANCE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE + 2 * layout.instanceInfoSize()
                + EtwLayout.EVENT_TRACE_HEADER_SIZE + EtwLayout.MOF_FIELD_SIZE;
    }
}
