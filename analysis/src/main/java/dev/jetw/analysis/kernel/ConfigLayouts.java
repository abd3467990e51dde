package dev.jetw.analysis.kernel;

/**
 * EventTraceConfig payloads: the machine's configuration the kernel logger writes at the end of a
 * session (rundown), per Microsoft's MOF classes SystemConfig_CPU, SystemConfig_PhyDisk,
 * SystemConfig_LogDisk, SystemConfig_NIC, SystemConfig_Services and SystemConfig_PnP (version 2; the
 * version 3 and 5 records Windows writes keep these heads, checked on the net.4.5.2 sample). Fixed
 * arrays ({@code char16 X[N]}) end at their first NUL. docs/kernel-events.md lists the layouts.
 */
final class ConfigLayouts {

    static final int CPU = 10;
    static final int PHYSICAL_DISK = 11;
    static final int LOGICAL_DISK = 12;
    static final int NIC = 13;
    static final int SERVICES = 15;
    static final int PNP = 22;

    private ConfigLayouts() {
    }

    static String config(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type != CPU && type != PHYSICAL_DISK && type != LOGICAL_DISK && type != NIC && type != SERVICES && type != PNP) {
            return null;
        }
        if (version < 2) {
            return "EventTraceConfig version " + version + " is not decoded (the documented layouts are version 2)";
        }
        switch (type) {
            case CPU:
                f.u32("mhz");
                f.u32("numberOfProcessors");
                f.u32("memSize"); // MB
                f.u32("pageSize");
                f.u32("allocationGranularity");
                f.utf16Fixed(256, "computerName");
                f.utf16Fixed(134, "domainName");
                f.pointer("hyperThreadingFlag");
                break;
            case PHYSICAL_DISK:
                f.u32("diskNumber");
                f.u32("bytesPerSector");
                f.u32("sectorsPerTrack");
                f.u32("tracksPerCylinder");
                f.u64("cylinders");
                f.u32("scsiPort");
                f.u32("scsiPath");
                f.u32("scsiTarget");
                f.u32("scsiLun");
                f.utf16Fixed(256, "manufacturer");
                f.u32("partitionCount");
                f.u8("writeCacheEnabled");
                f.reserved(1, "pad");
                f.utf16Fixed(3, "bootDriveLetter");
                f.utf16Fixed(2, "spare");
                break;
            case LOGICAL_DISK:
                f.u64("startOffset");
                f.u64("partitionSize");
                f.u32("diskNumber");
                f.u32("size");
                f.u32("driveType");
                f.utf16Fixed(4, "driveLetterString");
                f.reserved(4, "pad1");
                f.u32("partitionNumber");
                f.u32("sectorsPerCluster");
                f.u32("bytesPerSector");
                f.reserved(4, "pad2");
                f.u64("numberOfFreeClusters");
                f.u64("totalNumberOfClusters");
                f.utf16Fixed(16, "fileSystem");
                f.u32("volumeExt");
                break;
            case NIC:
                f.u64("physicalAddr");
                f.u32("physicalAddrLen");
                f.u32("ipv4Index");
                f.u32("ipv6Index");
                f.utf16("nicDescription");
                f.utf16("ipAddresses");
                f.utf16("dnsServerAddresses");
                break;
            case SERVICES:
                f.u32("processId");
                f.u32("serviceState");
                f.u32("subProcessTag");
                f.utf16("serviceName");
                f.utf16("displayName");
                f.utf16("processName");
                break;
            default: // PNP
                if (version >= 4) {
                    // Not on Microsoft's pages (they document the three lengths of version 2); the sample's version 4
                    // records start with the device class GUID and two filter counts, as PerfView's TraceEvent reads them.
                    f.guid("classGuid");
                    f.u32("upperFilterCount");
                    f.u32("lowerFilterCount");
                } else {
                    f.u32("idLength");
                    f.u32("descriptionLength");
                    f.u32("friendlyNameLength");
                }
                f.utf16("deviceId");
                f.utf16("deviceDescription");
                f.utf16("friendlyName");
                return version >= 4 ? "SystemConfig_PnP version " + version + " is not documented by Microsoft; its head"
                        + " (class GUID, filter counts) read as PerfView's TraceEvent reads it" : null;
        }
        return null;
    }
}
