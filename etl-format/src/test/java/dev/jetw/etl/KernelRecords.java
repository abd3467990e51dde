package dev.jetw.etl;

import static dev.jetw.etl.EtlFixtureBuilder.le;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;

/**
 * Kernel records in the layouts of Microsoft's MOF classes (docs/kernel-events.md), field by field,
 * for merged test traces: Thread/CSwitch (V2), Thread/ReadyThread (V2), Thread Start/DCStart (V3, and
 * V4 with its ThreadName), Thread/SetName (V2), DiskIo/Read (V3, with IssuingThreadId), FileIo Read/Write/Flush,
 * OpEnd and names (V2), PageFault/HardFault and PerfInfo/SampledProfile, all 64-bit. {@code ts} is the raw time stamp in the
 * file's clock.
 */
public final class KernelRecords {

    /** KTHREAD_STATE values of CSwitch's OldThreadState. */
    public static final int READY = 1;
    public static final int WAITING = 5;

    private KernelRecords() {
    }

    /** A context switch from {@code oldTid} (left in {@code oldState}, waiting for {@code waitReason}) to {@code newTid}. */
    public static byte[] cswitch(long ts, int newTid, int oldTid, int oldState, int waitReason) {
        byte[] p = le(24).putInt(newTid).putInt(oldTid).put((byte) 8).put((byte) 8).put((byte) 0).put((byte) 0)
                .put((byte) waitReason).put((byte) 1).put((byte) oldState).put((byte) 0).putInt(0).putInt(0).array();
        return systemLike(EtlFormat.HT_COMPACT64, 2, 0x05, 36, 0, 0, ts, p);
    }

    /** {@code tid} made ready to run (header tid: the readying thread, here 4). */
    public static byte[] readyThread(long ts, int tid) {
        return readyThread(ts, tid, 4, 4);
    }

    /** {@code tid} made ready to run by thread {@code waker} of process {@code wakerPid} (0: an interrupt or the idle CPU). */
    public static byte[] readyThread(long ts, int tid, int waker, int wakerPid) {
        byte[] p = le(8).putInt(tid).put((byte) 0).put((byte) 1).put((byte) 0).put((byte) 0).array();
        return systemLike(EtlFormat.HT_SYSTEM64, 2, 0x05, 50, waker, wakerPid, ts, p);
    }

    /**
     * A Thread record of Thread_TypeGroup1 ({@code type} 1 Start, 2 End, 3 DCStart, 4 DCEnd) for thread
     * {@code tid} of {@code pid}: version 3 when {@code name} is null, else version 4 with the name at the end.
     */
    public static byte[] thread(long ts, int type, int pid, int tid, String name) {
        java.nio.ByteBuffer p = le(72).putInt(pid).putInt(tid);
        for (int i = 0; i < 7; i++) {
            p.putLong(0x7ff000000000L + i * 0x1000L); // stack base and limit, user stack base and limit, affinity, Win32StartAddr, TEB
        }
        p.putInt(0).put((byte) 8).put((byte) 5).put((byte) 2).put((byte) 0);
        byte[] payload = name == null ? p.array() : EtlFixtureBuilder.concat(p.array(), EtlFixtureBuilder.utf16z(name));
        return systemLike(EtlFormat.HT_SYSTEM64, name == null ? 3 : 4, 0x05, type, tid, pid, ts, payload);
    }

    /**
     * A Process record of Process_V4_TypeGroup1 ({@code type} 1 Start, 3 DCStart) for process {@code pid} named
     * {@code image} (ImageFileName; the user SID absent: a 4-byte 0, as a kernel that gives none writes it).
     */
    public static byte[] process(long ts, int type, int pid, int parentPid, String image) {
        byte[] fixed = le(36).putLong(0xFFFF800000000000L + pid).putInt(pid).putInt(parentPid).putInt(1).putInt(0)
                .putLong(0x1000L * pid).putInt(0).array();
        byte[] name = (image + "\0").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] payload = EtlFixtureBuilder.concat(fixed, u32sid(), name, EtlFixtureBuilder.utf16z(image + " --run"),
                EtlFixtureBuilder.utf16z(""), EtlFixtureBuilder.utf16z(""));
        return systemLike(EtlFormat.HT_SYSTEM64, 4, 0x03, type, 0, pid, ts, payload);
    }

    private static byte[] u32sid() {
        return EtlFixtureBuilder.u32(0);
    }

    /** Thread/SetName (type 72, Thread_V2 as PerfView's TraceEvent registers it): ProcessId, ThreadId, ThreadName. */
    public static byte[] setName(long ts, int pid, int tid, String name) {
        byte[] p = EtlFixtureBuilder.concat(le(8).putInt(pid).putInt(tid).array(), EtlFixtureBuilder.utf16z(name));
        return systemLike(EtlFormat.HT_SYSTEM64, 2, 0x05, 72, tid, pid, ts, p);
    }

    /** A disk read completed at {@code ts}, issued by {@code tid}, {@code ticks} QPC ticks after it began. */
    public static byte[] diskRead(long ts, int tid, int bytes, long ticks) {
        byte[] p = le(52).putInt(0).putInt(0x43).putInt(bytes).putInt(0).putLong(8192).putLong(0xffff800011112222L)
                .putLong(0xffff800033334444L).putLong(ticks).putInt(tid).array();
        return systemLike(EtlFormat.HT_SYSTEM64, 3, 0x01, 10, 0, 4, ts, p);
    }

    /** A hard page fault of {@code tid} that began at raw time {@code initial} and ended at {@code ts}. */
    public static byte[] hardFault(long ts, long initial, int tid, int bytes) {
        return hardFault(ts, initial, 0x8000, 0x7ff000010000L, 0xF5, tid, bytes, 0, 0);
    }

    /** A hard page fault at {@code address}, every field given; the header names thread {@code headerTid} of {@code headerPid}. */
    public static byte[] hardFault(long ts, long initial, long readOffset, long address, long fileObject, int tid,
                                   int bytes, int headerTid, int headerPid) {
        byte[] p = le(40).putLong(initial).putLong(readOffset).putLong(address).putLong(fileObject).putInt(tid)
                .putInt(bytes).array();
        return systemLike(EtlFormat.HT_SYSTEM64, 2, 0x02, 32, headerTid, headerPid, ts, p);
    }

    /**
     * A FileIo operation's start (FileIo_ReadWrite for Read 67 / Write 68, FileIo_SimpleOp for Flush 73, version 2,
     * PERFINFO64 as Windows writes FileIo): {@code tid} (TTID) on {@code fileObject}, IRP {@code irp}.
     */
    public static byte[] fileIo(long ts, int type, int tid, long irp, long fileObject, int ioSize) {
        byte[] p = type == 73
                ? le(32).putLong(irp).putLong(tid).putLong(fileObject).putLong(fileObject + 8).array()
                : le(48).putLong(0x10000).putLong(irp).putLong(tid).putLong(fileObject).putLong(fileObject + 8)
                        .putInt(ioSize).putInt(0).array();
        return systemLike(EtlFormat.HT_PERFINFO64, 2, 0x04, type, 0, 0, ts, p);
    }

    /**
     * The same start in version 3, as Windows 8 and later write it: TTID a 4-byte field after FileKey; here the file's
     * {@code fileKey} is given (version 2's {@link #fileIo} uses {@code fileObject + 8}).
     */
    public static byte[] fileIoV3(long ts, int type, int tid, long irp, long fileObject, long fileKey, int ioSize) {
        byte[] p = type == 73
                ? le(28).putLong(irp).putLong(fileObject).putLong(fileKey).putInt(tid).array()
                : le(44).putLong(0x10000).putLong(irp).putLong(fileObject).putLong(fileKey).putInt(tid).putInt(ioSize)
                        .putInt(0).array();
        return systemLike(EtlFormat.HT_PERFINFO64, 3, 0x04, type, 0, 0, ts, p);
    }

    /** FileIo_OpEnd (76): IRP {@code irp} completed, {@code bytes} transferred (ExtraInfo), {@code status}. */
    public static byte[] fileIoEnd(long ts, long irp, long bytes, int status) {
        return systemLike(EtlFormat.HT_PERFINFO64, 2, 0x04, 76, 0, 0, ts, le(20).putLong(irp).putLong(bytes).putInt(status).array());
    }

    /** FileIo_Name ({@code type} 0 Name, 32 FileCreate, 36 FileRundown): the file {@code fileKey} is {@code name}. */
    public static byte[] fileName(long ts, int type, long fileKey, String name) {
        return systemLike(EtlFormat.HT_PERFINFO64, 2, 0x04, type, 0, 0, ts,
                EtlFixtureBuilder.concat(le(8).putLong(fileKey).array(), EtlFixtureBuilder.utf16z(name)));
    }

    /** A CPU sample of {@code tid}. */
    public static byte[] sample(long ts, int tid) {
        return sample(ts, 0x7ff612345678L, tid);
    }

    /** A CPU sample of {@code tid} at instruction {@code ip}. */
    public static byte[] sample(long ts, long ip, int tid) {
        byte[] p = le(16).putLong(ip).putInt(tid).putShort((short) 1).putShort((short) 0).array();
        return systemLike(EtlFormat.HT_PERFINFO64, 2, 0x0F, 46, 0, 0, ts, p);
    }
}
