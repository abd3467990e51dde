package dev.jetw.analysis.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Names of processes from the kernel's Process records (Start, End, DCStart, DCEnd, Defunct: their
 * ImageFileName, "java.exe" on Windows, the command name on Linux). Feed records in time order:
 * {@link #name(int)} gives the last name given, {@link #name(int, long)} the name as of a moment (a process id
 * reused later does not rename the process that had it then); memory is an entry per process and change.
 */
public final class KernelProcessNames {

    private final Map<Integer, Timeline<String>> names = new HashMap<>();

    /** Takes the name a Process record gives its process (other events are ignored). */
    public void accept(KernelEvent k) {
        if (k.kernelClass() != KernelClass.PROCESS || !k.fields().containsKey("imageFileName")) {
            return;
        }
        String name = k.text("imageFileName");
        if (name != null && !name.isEmpty()) {
            names.computeIfAbsent(k.processId(), x -> new Timeline<>()).put(k.fileTime(), name);
        }
    }

    /** The image name of process {@code pid} by the kernel's records (the last given), or null. */
    public String name(int pid) {
        Timeline<String> t = names.get(pid);
        return t == null ? null : t.last();
    }

    /**
     * The image name process {@code pid} had at {@code fileTime} (the last given at or before it, else the first
     * given after it), or null.
     */
    public String name(int pid, long fileTime) {
        Timeline<String> t = names.get(pid);
        return t == null ? null : t.at(fileTime);
    }
}
