package dev.jetw.analysis.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The machine a kernel trace was recorded on, from its EventTraceConfig records (the kernel logger's
 * rundown at the end of a session): computer name, processors and their clock, memory, physical disks
 * and volumes. Empty for traces without them (jetw's own, user-mode sessions).
 */
public final class MachineConfig {

    private String computerName;
    private long processors = -1;
    private long mhz = -1;
    private long memoryMb = -1;
    private final List<String> disks = new ArrayList<>();
    private final List<String> volumes = new ArrayList<>();

    /** Takes what it needs from an EventTraceConfig event; ignores every other event (null included). */
    public void accept(KernelEvent e) {
        if (e == null || e.kernelClass() != KernelClass.CONFIG) {
            return;
        }
        switch (e.type()) {
            case ConfigLayouts.CPU:
                computerName = e.text("computerName");
                processors = e.number("numberOfProcessors");
                mhz = e.number("mhz");
                memoryMb = e.number("memSize");
                break;
            case ConfigLayouts.PHYSICAL_DISK:
                if (e.text("manufacturer") != null) {
                    disks.add("disk " + e.number("diskNumber") + " " + e.text("manufacturer"));
                }
                break;
            case ConfigLayouts.LOGICAL_DISK:
                if (e.text("fileSystem") != null) {
                    volumes.add(String.format(Locale.ROOT, "%s %s on disk %d, %.1f GB", e.text("driveLetterString"),
                            e.text("fileSystem"), e.number("diskNumber"), e.number("partitionSize") / 1e9));
                }
                break;
            default:
                break;
        }
    }

    /** True when the trace held a SystemConfig_CPU record. */
    public boolean hasCpu() {
        return processors >= 0;
    }

    public String computerName() {
        return computerName;
    }

    /** SystemConfig_CPU NumberOfProcessors; -1 without the record. */
    public long processors() {
        return processors;
    }

    /** SystemConfig_CPU MHz; -1 without the record. */
    public long mhz() {
        return mhz;
    }

    /** SystemConfig_CPU MemSize (MB); -1 without the record. */
    public long memoryMb() {
        return memoryMb;
    }

    /** "disk 0 Virtual HD ATA Device", one per SystemConfig_PhyDisk. */
    public List<String> disks() {
        return new ArrayList<>(disks);
    }

    /** "C: NTFS on disk 0, 136.0 GB", one per SystemConfig_LogDisk. */
    public List<String> volumes() {
        return new ArrayList<>(volumes);
    }
}
