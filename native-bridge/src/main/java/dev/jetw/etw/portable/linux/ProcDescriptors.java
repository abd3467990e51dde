package dev.jetw.etw.portable.linux;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The traced process's descriptors through /proc/PID/fd: each one's path (readlink) and whether it is a regular
 * file (stat through the link, which follows the open file even when its name was unlinked). Pseudo files
 * (/proc, /sys) and devices are not file I/O that waits on storage; sockets, pipes and anonymous inodes have no
 * path. Reading a descriptor's path at decode time races its close: see docs/linux-kernel-events.md, "File I/O".
 */
final class ProcDescriptors implements FileIoTracker.Descriptors {

    private final String dir;

    ProcDescriptors(int pid) {
        this.dir = "/proc/" + pid + "/fd/";
    }

    @Override
    public String path(int fd) {
        try {
            return Files.readSymbolicLink(Paths.get(dir + fd)).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null;
        }
    }

    @Override
    public boolean isRegularFile(int fd, String path) {
        return isFileSystemPath(path) && Files.isRegularFile(Paths.get(dir + fd));
    }

    /** An absolute path outside the pseudo file systems and devices ("socket:[…]", "pipe:[…]" are not paths). */
    static boolean isFileSystemPath(String path) {
        return path.startsWith("/") && !path.startsWith("/proc/") && !path.startsWith("/sys/")
                && (!path.startsWith("/dev/") || path.startsWith("/dev/shm/"));
    }

    @Override
    public List<Integer> open() {
        List<Integer> out = new ArrayList<Integer>();
        String[] names = new java.io.File(dir).list();
        if (names != null) {
            for (String n : names) {
                try {
                    out.add(Integer.valueOf(n));
                } catch (NumberFormatException e) {
                    // not a descriptor
                }
            }
        }
        java.util.Collections.sort(out);
        return out;
    }
}
