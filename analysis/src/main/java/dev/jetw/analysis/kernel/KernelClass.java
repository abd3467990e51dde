package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecord;

import java.util.UUID;

/**
 * The classic kernel event classes, one per kernel event group (the high byte of a SYSTEM, COMPACT or
 * PERFINFO record's HookId, EVENT_TRACE_GROUP_* of ntwmi.h). Kernel records carry no GUID; tools show
 * them under the class GUID Microsoft's MOF classes declare (docs/kernel-events.md lists the sources).
 */
public enum KernelClass {
    EVENT_TRACE(0x00, "EventTrace", "68fdd900-4a3e-11d1-84f4-0000f80464e3"),
    DISK_IO(0x01, "DiskIo", "3d6fa8d4-fe05-11d0-9dda-00c04fd7ba7c"),
    PAGE_FAULT(0x02, "PageFault", "3d6fa8d3-fe05-11d0-9dda-00c04fd7ba7c"),
    PROCESS(0x03, "Process", "3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c"),
    FILE_IO(0x04, "FileIo", "90cbdc39-4a3e-11d1-84f4-0000f80464e3"),
    THREAD(0x05, "Thread", "3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c"),
    TCP_IP(0x06, "TcpIp", "9a280ac0-c8e0-11d1-84e2-00c04fb998a2"),
    JOB(0x07, "Job", "3282fc76-feed-498e-8aa7-e70f459d430e"),
    UDP_IP(0x08, "UdpIp", "bf3a50c5-a9c9-4988-a005-2df0b7c80f80"),
    REGISTRY(0x09, "Registry", "ae53722e-c863-11d2-8659-00c04fa321a1"),
    DBG_PRINT(0x0A, "DbgPrint", "13976d09-a327-438c-950b-7f03192815c7"),
    CONFIG(0x0B, "EventTraceConfig", "01853a65-418f-4f36-aefc-dc0f1d2fd235"),
    SPARE1(0x0C, "Spare1", "99134383-5248-43fc-834b-529454e75df3"),
    WNF(0x0D, "Wnf", "42695762-ea50-497a-9068-5cbbb35e0b95"),
    POOL(0x0E, "Pool", "0268a8b6-74fd-4302-9dd0-6e8f1795c0cf"),
    PERF_INFO(0x0F, "PerfInfo", "ce1dbfb4-137e-4da6-87b0-3f59aa102cbc"),
    HEAP(0x10, "Heap", "222962ab-6180-4b88-a825-346b75f2a24a"),
    OBJECT(0x11, "Object", "89497f50-effe-4440-8cf2-ce6b1cdcaca7"),
    POWER(0x12, "Power", "e43445e0-0903-48c3-b878-ff0fccebdd04"),
    MOD_BOUND(0x13, "ModBound", "a9152f00-3f58-4bee-92a1-70c7d079d5dd"),
    IMAGE(0x14, "Image", "2cb15d1d-5fc1-11d2-abe1-00a0c911f518"),
    DPC(0x15, "Dpc", "b2d14872-7c5b-463d-8419-ee9bf7d23e04"),
    CC(0x16, "Cc", "7687a439-f752-45b8-b741-321aec0f8df9"),
    CRIT_SEC(0x17, "CritSec", "3ac66736-cc59-4cff-8115-8df50e39816b"),
    STACK_WALK(0x18, "StackWalk", "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3"),
    UMS(0x19, "Ums", "9aec974b-5b8e-4118-9b92-3186d8002ce5"),
    ALPC(0x1A, "ALPC", "45d8cccd-539f-4b72-a8b7-5c683142609a"),
    SPLIT_IO(0x1B, "SplitIo", "d837ca92-12b9-44a5-ad6a-3a65b3578aa8"),
    THREAD_POOL(0x1C, "ThreadPool", "c861d0e2-a2c1-4d36-9f9c-970bab943a12"),
    HYPERVISOR(0x1D, "Hypervisor", "7f2a405c-69b5-4bf9-a1f5-30e8f1afab5e"),
    HYPERVISOR_X(0x1E, "HypervisorX", "2ce9a149-effe-42f0-a635-a1d39e26c8f2");

    /** Process group, type 10 (WMI_LOG_TYPE_PROCESS_LOAD_IMAGE): an Image Load event logged in the Process group. */
    static final int PROCESS_LOAD_IMAGE = 10;
    private static final KernelClass[] BY_GROUP = values();

    private final int group;
    private final String displayName;
    private final UUID guid;

    KernelClass(int group, String displayName, String guid) {
        this.group = group;
        this.displayName = displayName;
        this.guid = UUID.fromString(guid);
    }

    /** The group byte of the HookId. */
    public int group() {
        return group;
    }

    /** The MOF class name ("Thread", "DiskIo", ...). */
    public String displayName() {
        return displayName;
    }

    /** The event-class GUID of the MOF class. */
    public UUID guid() {
        return guid;
    }

    /** True for the header types that carry a HookId instead of a GUID: SYSTEM, COMPACT, PERFINFO (32/64). */
    public static boolean isKernelRecord(EtlRecord r) {
        int ht = r.headerType();
        return ht == EtlFormat.HT_SYSTEM32 || ht == EtlFormat.HT_SYSTEM64 || ht == EtlFormat.HT_COMPACT32
                || ht == EtlFormat.HT_COMPACT64 || ht == EtlFormat.HT_PERFINFO32 || ht == EtlFormat.HT_PERFINFO64;
    }

    /** The class of a kernel record, or null for records of other header types and unknown groups. */
    public static KernelClass of(EtlRecord r) {
        if (!isKernelRecord(r) || r.group() < 0 || r.group() >= BY_GROUP.length) {
            return null;
        }
        if (r.group() == PROCESS.group && r.type() == PROCESS_LOAD_IMAGE) {
            return IMAGE;
        }
        return BY_GROUP[r.group()];
    }
}
