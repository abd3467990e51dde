package dev.jetw.selftest;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The thread facts of the kernel records in an .etl file, read from the raw record fields (no kernel
 * decoding needed). Kernel records carry no GUID: the HookId's group byte names the class (0x05 Thread),
 * its type byte the event. Payload layouts are Microsoft's MOF classes:
 * Thread_V2_TypeGroup1 (types 1 Start, 2 End, 3 DCStart, 4 DCEnd) begins {@code uint32 ProcessId,
 * uint32 TThreadId}; CSwitch (type 36) begins {@code uint32 NewThreadId, uint32 OldThreadId}.
 */
final class KernelThreads {

    static final int GROUP_THREAD = 0x05;
    static final int TYPE_START = 1;
    static final int TYPE_END = 2;
    static final int TYPE_DC_START = 3;
    static final int TYPE_DC_END = 4;
    static final int TYPE_CSWITCH = 36;

    /** Thread id → process id, from Thread Start/End/DCStart/DCEnd records. */
    final Map<Integer, Integer> processOfThread = new HashMap<>();
    /** Thread ids switched in by a CSwitch record. */
    final Set<Integer> switchedIn = new HashSet<>();
    int threadRecords;
    int cswitchRecords;
    /** Records with a group byte (SYSTEM, COMPACT, PERFINFO headers): the kernel's. */
    int kernelRecords;

    private KernelThreads() {
    }

    static KernelThreads read(Path etl) throws IOException {
        KernelThreads k = new KernelThreads();
        try (EtlReader reader = EtlReader.open(etl)) {
            for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                if (r.group() < 0 || r.isLogfileHeader()) {
                    continue;
                }
                k.kernelRecords++;
                k.add(r);
            }
        }
        return k;
    }

    private void add(EtlRecord r) {
        if (r.group() != GROUP_THREAD || r.userData().length < 8) {
            return;
        }
        ByteBuffer p = ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN);
        switch (r.type()) {
            case TYPE_START:
            case TYPE_END:
            case TYPE_DC_START:
            case TYPE_DC_END:
                threadRecords++;
                processOfThread.put(p.getInt(4), p.getInt(0));
                break;
            case TYPE_CSWITCH:
                cswitchRecords++;
                switchedIn.add(p.getInt(0));
                break;
            default:
                break;
        }
    }
}
