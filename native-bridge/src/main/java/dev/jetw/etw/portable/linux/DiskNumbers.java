package dev.jetw.etw.portable.linux;

import java.io.File;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * DiskIo's DiskNumber (Windows: the physical disk's index) for a block device's dev_t: its index among
 * {@code /sys/block}'s devices sorted by name (vda 0, vdb 1, ... as they were when the session began), or -1
 * for a device that was not there. Block request events name the whole disk, so partitions need no entry.
 */
final class DiskNumbers {

    private final Map<Integer, Integer> byDev = new HashMap<Integer, Integer>();
    private final StringBuilder description = new StringBuilder();

    DiskNumbers(File sysBlock) {
        String[] names = sysBlock.list();
        if (names == null) {
            return;
        }
        Arrays.sort(names);
        int index = 0;
        for (String n : names) {
            String dev = ProcFs.readSmall(new File(sysBlock, n + "/dev").getPath());
            if (dev == null) {
                continue;
            }
            String[] mm = dev.trim().split(":");
            try {
                int major = Integer.parseInt(mm[0]);
                int minor = Integer.parseInt(mm[1]);
                byDev.put(major << 20 | minor, index);
                description.append(description.length() == 0 ? "" : ", ").append(index).append(' ').append(n)
                        .append(" (").append(major).append(':').append(minor).append(')');
                index++;
            } catch (RuntimeException e) {
                // not a "major:minor" line: not a device we can name
            }
        }
    }

    /** The DiskNumber of the kernel dev_t {@code dev} (major &lt;&lt; 20 | minor), or -1. */
    int of(int dev) {
        Integer n = byDev.get(dev);
        return n == null ? -1 : n;
    }

    /** "0 vda (254:0), 1 vdb (254:16)". */
    String describe() {
        return description.toString();
    }
}
