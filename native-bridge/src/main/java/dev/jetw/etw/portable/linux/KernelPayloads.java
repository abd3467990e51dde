package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The payloads (UserData) of the Windows kernel records the Linux evidence becomes, laid out as Microsoft's
 * MOF classes describe them for 64-bit records (docs/kernel-events.md; the reader's KernelDecoder decodes
 * exactly these): little-endian, pointers 8 bytes, no padding. Each method fills {@code b} (little-endian,
 * cleared by the caller, large enough) from position 0 and returns the length, so that the per-event path
 * allocates nothing. The record header (group, type, version, ids, time) is the writer's business.
 */
final class KernelPayloads {

    static final int GROUP_DISK_IO = 0x01;
    static final int GROUP_PROCESS = 0x03;
    static final int GROUP_THREAD = 0x05;
    static final int GROUP_PAGE_FAULT = 0x02;
    static final int GROUP_PERF_INFO = 0x0F;

    static final int START = 1;
    static final int END = 2;
    static final int DC_START = 3;
    static final int CSWITCH = 36;
    static final int READY_THREAD = 50;
    static final int SET_NAME = 72;
    static final int DISK_READ = 10;
    static final int DISK_WRITE = 11;
    static final int DISK_READ_INIT = 12;
    static final int DISK_WRITE_INIT = 13;
    static final int DISK_FLUSH = 14;
    static final int DISK_FLUSH_INIT = 15;
    static final int HARD_FAULT = 32;
    static final int SAMPLED_PROFILE = 46;

    /** MOF class versions written: the ones the reader decodes (and Windows 10 writes). */
    static final int THREAD_VERSION = 3;
    static final int CSWITCH_VERSION = 2;
    static final int PROCESS_VERSION = 4;
    static final int DISK_IO_VERSION = 3;
    static final int HARD_FAULT_VERSION = 2;
    static final int SAMPLED_PROFILE_VERSION = 2;

    /** IRP flags (wdm.h) for DiskIo.IrpFlags. */
    static final int IRP_NOCACHE = 0x1;
    static final int IRP_SYNCHRONOUS_API = 0x4;
    static final int IRP_READ_OPERATION = 0x100;
    static final int IRP_WRITE_OPERATION = 0x200;

    /** Room for any payload but Process's strings. */
    static final int MAX_FIXED = 72;

    private KernelPayloads() {
    }

    /** Thread/SetName (Thread type 72, version 2, as TraceEvent registers it): ProcessId, ThreadId, ThreadName. */
    static byte[] setName(int pid, int tid, String name) {
        byte[] n = (name + "\0").getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer b = ByteBuffer.allocate(8 + n.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(pid).putInt(tid).put(n);
        return b.array();
    }

    /** CSwitch (Thread type 36, version 2): 24 bytes. */
    static int cswitch(ByteBuffer b, int newTid, int oldTid, int newPriority, int oldPriority, int waitReason,
                       int waitMode, int oldState, int idealProcessor) {
        b.putInt(0, newTid).putInt(4, oldTid);
        b.put(8, (byte) newPriority).put(9, (byte) oldPriority);
        b.put(10, (byte) 0); // PreviousCState: C-states are not traced
        b.put(11, (byte) 0); // SpareByte
        b.put(12, (byte) waitReason).put(13, (byte) waitMode).put(14, (byte) oldState).put(15, (byte) idealProcessor);
        b.putInt(16, 0); // NewThreadWaitTime: its unit is undocumented; left 0 rather than guessed
        b.putInt(20, 0); // Reserved
        return 24;
    }

    /** ReadyThread (Thread type 50, version 2): 8 bytes. */
    static int readyThread(ByteBuffer b, int readiedTid, int flag) {
        b.putInt(0, readiedTid);
        b.put(4, (byte) 0); // AdjustReason
        b.put(5, (byte) 0); // AdjustIncrement
        b.put(6, (byte) flag).put(7, (byte) 0);
        return 8;
    }

    /**
     * Thread_V3_TypeGroup1 (Start 1, End 2, DCStart 3; version 3): 72 bytes. Linux gives no stack bounds,
     * affinity, start address or TEB to a tracer: they are 0. PagePriority 5 and IoPriority 2 are Windows'
     * normal values.
     */
    static int thread(ByteBuffer b, int pid, int tid, int basePriority) {
        b.putInt(0, pid).putInt(4, tid);
        for (int i = 8; i < 64; i += 8) {
            b.putLong(i, 0L); // StackBase, StackLimit, UserStackBase, UserStackLimit, Affinity, Win32StartAddr, TebBase
        }
        b.putInt(64, 0); // SubProcessTag
        b.put(68, (byte) basePriority).put(69, (byte) 5).put(70, (byte) 2).put(71, (byte) 0);
        return 72;
    }

    /**
     * Process_V4_TypeGroup1 (Start 1, End 2, DCStart 3; version 4): UniqueProcessKey = the pid (there is no
     * EPROCESS address; the pid keeps it unique), UserSID absent (a 4-byte 0), ImageFileName = the command's
     * name (ANSI), CommandLine UTF-16. Allocates (rare: once per process).
     */
    static byte[] process(int pid, int parentPid, int exitStatus, String imageFileName, String commandLine) {
        // UTF-8, as the kernel's comm is (read as UTF-8): a name outside Latin-1 stays whole, as in Thread/SetName's
        // UTF-16; readers take a valid UTF-8 ImageFileName as UTF-8 and anything else as Windows ANSI (Latin-1).
        byte[] image = (imageFileName + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] cmd = (commandLine + "\0").getBytes(StandardCharsets.UTF_16LE);
        ByteBuffer b = ByteBuffer.allocate(8 + 4 * 4 + 8 + 4 + 4 + image.length + cmd.length + 2 + 2)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putLong(pid);
        b.putInt(pid).putInt(parentPid).putInt(0).putInt(exitStatus); // ProcessId, ParentId, SessionId, ExitStatus
        b.putLong(0); // DirectoryTableBase
        b.putInt(0); // Flags
        b.putInt(0); // UserSID: absent
        b.put(image).put(cmd);
        b.putShort((short) 0); // PackageFullName ""
        b.putShort((short) 0); // ApplicationId ""
        return b.array();
    }

    /**
     * DiskIo_TypeGroup1 (Read 10, Write 11; version 3): 52 bytes. HighResResponseTime in the file's QPC ticks
     * (portable files: 100 ns); Irp = the request's number in this session; FileObject 0 (the block layer
     * does not know the file).
     */
    static int diskReadWrite(ByteBuffer b, int diskNumber, int irpFlags, int transferSize, long byteOffset, long irp,
                             long responseTicks, int issuingTid) {
        b.putInt(0, diskNumber).putInt(4, irpFlags).putInt(8, transferSize).putInt(12, 0);
        b.putLong(16, byteOffset);
        b.putLong(24, 0L);
        b.putLong(32, irp);
        b.putLong(40, responseTicks);
        b.putInt(48, issuingTid);
        return 52;
    }

    /** DiskIo_TypeGroup3 (FlushBuffers 14; version 3): 28 bytes. */
    static int diskFlush(ByteBuffer b, int diskNumber, int irpFlags, long responseTicks, long irp, int issuingTid) {
        b.putInt(0, diskNumber).putInt(4, irpFlags).putLong(8, responseTicks).putLong(16, irp).putInt(24, issuingTid);
        return 28;
    }

    /** DiskIo_TypeGroup2 (ReadInit 12, WriteInit 13, FlushInit 15; version 3): 12 bytes. */
    static int diskInit(ByteBuffer b, long irp, int issuingTid) {
        b.putLong(0, irp).putInt(8, issuingTid);
        return 12;
    }

    /**
     * PerfInfo_SampledProfile (PerfInfo type 46, version 2): 16 bytes. InstructionPointer, ThreadId, Count (1: one
     * sample), Reserved.
     */
    static int sampledProfile(ByteBuffer b, long instructionPointer, int tid) {
        b.putLong(0, instructionPointer).putInt(8, tid).putShort(12, (short) 1).putShort(14, (short) 0);
        return 16;
    }

    /**
     * PageFault_HardFault (PageFault type 32, version 2): 40 bytes. InitialTime (a raw time stamp of the file, when
     * the fault began), ReadOffset, VirtualAddress, FileObject, TThreadId, ByteCount.
     */
    static int hardFault(ByteBuffer b, long initialTime, long readOffset, long virtualAddress, long fileObject, int tid,
                         int byteCount) {
        b.putLong(0, initialTime).putLong(8, readOffset).putLong(16, virtualAddress).putLong(24, fileObject);
        b.putInt(32, tid).putInt(36, byteCount);
        return 40;
    }

    /** IrpFlags for a block request's rwbs ("WS", "RA", "FWS", ...). */
    static int irpFlags(String rwbs) {
        int f = IRP_NOCACHE;
        String op = rwbs.startsWith("F") && rwbs.length() > 1 ? rwbs.substring(1) : rwbs;
        if (op.startsWith("R")) {
            f |= IRP_READ_OPERATION;
        } else if (op.startsWith("W")) {
            f |= IRP_WRITE_OPERATION;
        }
        if (rwbs.indexOf('S') > 0) {
            f |= IRP_SYNCHRONOUS_API;
        }
        return f;
    }
}
