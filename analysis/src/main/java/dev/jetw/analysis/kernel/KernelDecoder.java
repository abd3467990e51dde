package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes kernel records into {@link KernelEvent}s: class by group, name by type, payload fields per
 * Microsoft's MOF class for the (class, type, version); docs/kernel-events.md lists every layout and
 * its source. Pointers are 4 or 8 bytes by the record's own header type (a 64-bit file may hold
 * 32-bit records). A version the documentation does not describe is not decoded (the event keeps its
 * name and a {@link KernelEvent#decodeNote()}); a payload shorter than its class keeps the fields
 * before the cut. Decoding never throws.
 */
public final class KernelDecoder {

    private KernelDecoder() {
    }

    /** The kernel view of {@code r}, or null when it is not a kernel record. */
    public static KernelEvent decode(EtlRecord r) {
        KernelClass c = KernelClass.of(r);
        if (c == null) {
            return null;
        }
        DecodedFields f = new DecodedFields(r.userData(), pointerSize(r));
        String note;
        try {
            note = decodeFields(c, r.type(), r.version() & 0xFF, f);
        } catch (PayloadCursor.PayloadEnded e) {
            note = e.getMessage();
        }
        return new KernelEvent(r, c, KernelEventNames.name(c, r.type()), f.values, f.addresses, note);
    }

    /** "CSwitch" for a kernel record (without decoding its payload), or null when it is not one. */
    public static String eventName(EtlRecord r) {
        KernelClass c = KernelClass.of(r);
        return c == null ? null : KernelEventNames.name(c, r.type());
    }

    private static int pointerSize(EtlRecord r) {
        int ht = r.headerType();
        return ht == EtlFormat.HT_SYSTEM64 || ht == EtlFormat.HT_COMPACT64 || ht == EtlFormat.HT_PERFINFO64 ? 8 : 4;
    }

    /** Fills {@code f}; returns a note when the layout is not documented (null when decoded as documented). */
    private static String decodeFields(KernelClass c, int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        switch (c) {
            case PROCESS:
                return process(type, version, f);
            case THREAD:
                return thread(type, version, f);
            case IMAGE:
                return image(type, version, f);
            case DISK_IO:
                return diskIo(type, version, f);
            case FILE_IO:
                return fileIo(type, version, f);
            case PAGE_FAULT:
                return pageFault(type, f);
            case PERF_INFO:
                return perfInfo(type, f);
            case STACK_WALK:
                return stackWalk(type, f);
            case TCP_IP:
                return NetworkLayouts.tcpIp(type, version, f);
            case UDP_IP:
                return NetworkLayouts.udpIp(type, version, f);
            case CONFIG:
                return ConfigLayouts.config(type, version, f);
            default:
                return null;
        }
    }

    private static String undocumented(String what, int version) {
        return what + " version " + version + " is not decoded (no documented layout)";
    }

    /** Process_V2/V3/V4_TypeGroup1 (Start, End, DCStart, DCEnd, Defunct), Process Terminate. */
    private static String process(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type == 11) {
            f.u32("processId"); // not a documented MOF class: as TraceEvent's ProcessTerminate reads it
            return "Process/Terminate has no documented MOF class; processId as TraceEvent decodes it";
        }
        if (type != 1 && type != 2 && type != 3 && type != 4 && type != 39) {
            return null;
        }
        if (version < 2 || version > 5) {
            return undocumented("Process_TypeGroup1", version);
        }
        f.pointer("uniqueProcessKey");
        f.u32("processId");
        f.u32("parentId");
        f.u32("sessionId");
        f.s32("exitStatus");
        if (version >= 3) {
            f.pointer("directoryTableBase");
        }
        if (version >= 4) {
            f.u32("flags");
        }
        f.sid("userSid");
        f.ansi("imageFileName");
        f.utf16("commandLine");
        if (version >= 4) {
            f.utf16("packageFullName");
            f.utf16("applicationId");
        }
        if (version == 5) {
            return "Process version 5 is not documented; decoded as version 4 (the bytes of the sample match),"
                    + " the " + f.in.remaining() + " bytes after applicationId are not decoded";
        }
        return null;
    }

    /** Thread_V2/V3/V4_TypeGroup1 (Start, End, DCStart, DCEnd), CSwitch, ReadyThread, SetName. */
    private static String thread(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        switch (type) {
            case 1:
            case 2:
            case 3:
            case 4:
                if (version < 2 || version > 4) {
                    return undocumented("Thread_TypeGroup1", version);
                }
                f.u32("processId");
                f.u32("tThreadId");
                f.pointer("stackBase");
                f.pointer("stackLimit");
                f.pointer("userStackBase");
                f.pointer("userStackLimit");
                f.pointer(version == 2 ? "startAddr" : "affinity");
                f.pointer("win32StartAddr");
                f.pointer("tebBase");
                f.u32("subProcessTag");
                if (version >= 3) {
                    f.u8("basePriority");
                    f.u8("pagePriority");
                    f.u8("ioPriority");
                    f.u8("threadFlags");
                }
                if (version >= 4) {
                    f.utf16("threadName"); // Thread_V4 (wmicore.mof): the thread's description, "" when it has none
                }
                return f.in.remaining() == 0 ? null : f.in.remaining() + " bytes after the documented fields are not decoded";
            case 36:
                if (version < 2) {
                    return undocumented("CSwitch", version);
                }
                f.u32("newThreadId");
                f.u32("oldThreadId");
                f.s8("newThreadPriority");
                f.s8("oldThreadPriority");
                f.u8("previousCState");
                f.s8("spareByte");
                f.s8("oldThreadWaitReason");
                f.s8("oldThreadWaitMode");
                f.s8("oldThreadState");
                f.s8("oldThreadWaitIdealProcessor");
                f.u32("newThreadWaitTime");
                f.u32("reserved");
                return null;
            case 50:
                if (version < 2) {
                    return undocumented("ReadyThread", version);
                }
                f.u32("tThreadId");
                f.s8("adjustReason");
                f.s8("adjustIncrement");
                f.s8("flag");
                f.s8("reserved");
                return null;
            case 72:
                // ThreadSetName (wmicore.mof's Thread_V2; PerfView's TraceEvent reads it the same way): the
                // name a thread was given (SetThreadDescription; the Linux collector's task_rename and comm).
                f.u32("processId");
                f.u32("threadId");
                f.utf16("threadName");
                return version == 2 ? null : "Thread/SetName version " + version + " decoded with the version 2 layout"
                        + " (the only one documented)";
            default:
                return null;
        }
    }

    /**
     * Image_Load (Load, UnLoad, DCStart, DCEnd), versions 2 and 3. SignatureLevel is an SE_SIGNING_LEVEL
     * (winnt.h: 0 unchecked, 1 unsigned, 4 Authenticode, 6 Store, 8 Microsoft, 12 Windows, 14 Windows TCB, ...),
     * SignatureType an SE_IMAGE_SIGNATURE_TYPE (0 none, 1 embedded, 2 cache, 3 catalog cached, 4 catalog not
     * cached, 5 catalog hint, 6 package catalog).
     */
    private static String image(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type != 10 && type != 2 && type != 3 && type != 4) {
            if (type == 33 || type == 34) {
                f.pointer("imageBase"); // KernelBase / HypercallPage: one address (ntwmi.h names only)
            }
            return null;
        }
        if (version < 2 || version > 3) {
            return undocumented("Image_Load", version);
        }
        f.pointer("imageBase");
        f.pointer("imageSize");
        f.u32("processId");
        f.u32("imageChecksum");
        f.u32("timeDateStamp");
        if (version >= 3) {
            // Version 3 (wmicore.mof's Image_Load): the image's code-signing level and how it was verified, in the
            // first two of the 4 bytes Microsoft's Image_Load page (the version 2 layout) shows as Reserved0.
            f.u8("signatureLevel");
            f.u8("signatureType");
            f.reserved(2, "reserved0");
        } else {
            f.reserved(4, "reserved0");
        }
        f.pointer("defaultBase");
        f.reserved(16, "reserved1-4");
        f.utf16("fileName");
        return null;
    }

    /** DiskIo_TypeGroup1 (Read, Write), TypeGroup2 (ReadInit, WriteInit, FlushInit), TypeGroup3 (FlushBuffers). */
    private static String diskIo(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type < 10 || type > 15) {
            return null;
        }
        if (version < 2 || version > 3) {
            return undocumented("DiskIo", version);
        }
        switch (type) {
            case 10:
            case 11:
                f.u32("diskNumber");
                f.u32("irpFlags");
                f.u32("transferSize");
                f.reserved(4, "reserved");
                f.u64("byteOffset");
                f.pointer("fileObject");
                f.pointer("irp");
                f.u64("highResResponseTime");
                break;
            case 14:
                f.u32("diskNumber");
                f.u32("irpFlags");
                f.u64("highResResponseTime");
                f.pointer("irp");
                break;
            default:
                f.pointer("irp");
                break;
        }
        if (version >= 3) {
            f.u32("issuingThreadId");
        }
        return null;
    }

    /**
     * FileIo_Name, FileIo_Create, FileIo_ReadWrite, FileIo_SimpleOp, FileIo_OpEnd. Version 2 (Microsoft's MOF
     * pages) carries TTID pointer-sized right after IrpPtr; version 3 (Windows 8 and later) moves it, as a
     * 4-byte thread id, after FileKey (Create: after FileObject), as TraceEvent's FileIO*TraceData read it.
     * Name's pointer is the FileKey: the file's identity, shared by its opens, that names are indexed by.
     */
    private static String fileIo(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        boolean v3 = version >= 3;
        switch (type) {
            case 0:
            case 32:
            case 35:
            case 36:
                f.pointer("fileKey");
                f.utf16("fileName");
                return null;
            case 64:
                f.pointer("irpPtr");
                if (!v3) {
                    f.pointerSizedId("ttid");
                }
                f.pointer("fileObject");
                if (v3) {
                    f.u32("ttid");
                }
                f.u32("createOptions");
                f.u32("fileAttributes");
                f.u32("shareAccess");
                f.utf16("openPath");
                return null;
            case 67:
            case 68:
                f.u64("offset");
                simpleOp(v3, f);
                f.u32("ioSize");
                f.u32("ioFlags");
                return null;
            case 65:
            case 66:
            case 73:
                simpleOp(v3, f);
                return null;
            case 76:
                f.pointer("irpPtr");
                f.pointer("extraInfo");
                f.u32("ntStatus");
                return null;
            default:
                return null;
        }
    }

    /** IrpPtr, TTID, FileObject, FileKey: FileIo_SimpleOp, and FileIo_ReadWrite after its Offset. */
    private static void simpleOp(boolean v3, DecodedFields f) throws PayloadCursor.PayloadEnded {
        f.pointer("irpPtr");
        if (!v3) {
            f.pointerSizedId("ttid");
        }
        f.pointer("fileObject");
        f.pointer("fileKey");
        if (v3) {
            f.u32("ttid");
        }
    }

    /** PageFault_TypeGroup1 (types 10-15) and PageFault_HardFault (32). */
    private static String pageFault(int type, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type >= 10 && type <= 15) {
            f.pointer("virtualAddress");
            f.pointer("programCounter");
        } else if (type == 32) {
            f.u64("initialTime");
            f.u64("readOffset");
            f.pointer("virtualAddress");
            f.pointer("fileObject");
            f.u32("tThreadId");
            f.u32("byteCount");
        }
        return null;
    }

    /** PerfInfo_SampledProfile (46). */
    private static String perfInfo(int type, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type == 46) {
            f.pointer("instructionPointer");
            f.u32("threadId");
            f.u16("count");
            f.u16("reserved");
        }
        return null;
    }

    /**
     * StackWalk: the whole stack of one event (32, StackWalk_Event), or a stack compressed by key (Windows
     * 8+; not on Microsoft's MOF pages, read as PerfView's TraceEvent reads them): the event's reference to
     * its kernel part (37 StackKeyKernel) or user part (38 StackKeyUser), and the key's frames, logged when
     * the kernel drops the key from its cache (35 KeyDelete) or at the end of the session (36 KeyRundown).
     * {@link StackKeys} joins them.
     */
    private static String stackWalk(int type, DecodedFields f) throws PayloadCursor.PayloadEnded {
        switch (type) {
            case 32:
                f.u64("eventTimeStamp");
                f.u32("stackProcess");
                f.u32("stackThread");
                frames(f);
                return null;
            case 37:
            case 38:
                f.u64("eventTimeStamp");
                f.u32("stackProcess");
                f.u32("stackThread");
                f.pointer("stackKey");
                return null;
            case 35:
            case 36:
                f.pointer("stackKey");
                frames(f);
                return null;
            default:
                return null;
        }
    }

    /** The rest of the payload as return addresses, innermost first. */
    private static void frames(DecodedFields f) throws PayloadCursor.PayloadEnded {
        List<Long> frames = new ArrayList<>();
        while (f.in.remaining() >= f.in.pointerSize()) {
            frames.add(f.in.pointer("stack"));
        }
        long[] stack = new long[frames.size()];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = frames.get(i);
        }
        f.values.put("stack", stack);
        f.addresses.add("stack");
    }
}
