package dev.jetw.analysis.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Event names of kernel classes by event type (opcode), as Microsoft's MOF class documentation
 * names them (EventType qualifiers); types without a documented name are shown as "type N".
 */
final class KernelEventNames {

    private static final Map<KernelClass, Map<Integer, String>> NAMES = new HashMap<>();

    static {
        names(KernelClass.EVENT_TRACE, 0, "Header", 5, "Extension", 8, "RundownComplete", 32, "GroupMasksEnd",
                48, "RundownBegin", 49, "RundownEnd", 64, "DbgIdRsds", 66, "BuildLab", 67, "BinaryPath");
        names(KernelClass.PROCESS, 1, "Start", 2, "End", 3, "DCStart", 4, "DCEnd", 11, "Terminate", 39, "Defunct");
        names(KernelClass.THREAD, 1, "Start", 2, "End", 3, "DCStart", 4, "DCEnd", 36, "CSwitch", 50, "ReadyThread",
                72, "SetName");
        names(KernelClass.IMAGE, 2, "UnLoad", 3, "DCStart", 4, "DCEnd", 10, "Load", 33, "KernelBase", 34, "HypercallPage");
        names(KernelClass.DISK_IO, 10, "Read", 11, "Write", 12, "ReadInit", 13, "WriteInit", 14, "FlushBuffers",
                15, "FlushInit");
        names(KernelClass.FILE_IO, 0, "Name", 32, "FileCreate", 35, "FileDelete", 36, "FileRundown", 64, "Create",
                65, "Cleanup", 66, "Close", 67, "Read", 68, "Write", 69, "SetInfo", 70, "Delete", 71, "Rename",
                72, "DirEnum", 73, "Flush", 74, "QueryInfo", 75, "FSControl", 76, "OperationEnd", 77, "DirNotify");
        names(KernelClass.PAGE_FAULT, 10, "TransitionFault", 11, "DemandZeroFault", 12, "CopyOnWrite",
                13, "GuardPageFault", 14, "HardPageFault", 15, "AccessViolation", 32, "HardFault");
        names(KernelClass.PERF_INFO, 46, "SampledProfile");
        names(KernelClass.STACK_WALK, 32, "Stack", 35, "KeyDelete", 36, "KeyRundown", 37, "StackKeyKernel", 38, "StackKeyUser");
        names(KernelClass.TCP_IP, 10, "Send", 11, "Recv", 12, "Connect", 13, "Disconnect", 14, "Retransmit", 15, "Accept",
                16, "Reconnect", 17, "Fail", 18, "TCPCopy", 19, "ARPCopy", 20, "FullACK", 21, "PartACK", 22, "DupACK",
                26, "SendIPV6", 27, "RecvIPV6", 28, "ConnectIPV6", 29, "DisconnectIPV6", 30, "RetransmitIPV6", 31, "AcceptIPV6",
                32, "ReconnectIPV6", 34, "TCPCopyIPV6");
        names(KernelClass.UDP_IP, 10, "Send", 11, "Recv", 17, "Fail", 26, "SendIPV6", 27, "RecvIPV6");
        names(KernelClass.CONFIG, 10, "CPU", 11, "PhyDisk", 12, "LogDisk", 13, "NIC", 14, "Video", 15, "Services",
                16, "Power", 21, "IRQ", 22, "PnP", 23, "IDEChannel");
    }

    private KernelEventNames() {
    }

    private static void names(KernelClass c, Object... typeAndName) {
        Map<Integer, String> m = new HashMap<>();
        for (int i = 0; i < typeAndName.length; i += 2) {
            m.put((Integer) typeAndName[i], (String) typeAndName[i + 1]);
        }
        NAMES.put(c, m);
    }

    /** "CSwitch", or "type 37" where the type has no documented name. */
    static String name(KernelClass c, int type) {
        Map<Integer, String> m = NAMES.get(c);
        String n = m == null ? null : m.get(type);
        return n != null ? n : "type " + type;
    }
}
