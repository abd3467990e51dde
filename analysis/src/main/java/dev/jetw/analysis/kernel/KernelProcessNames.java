package dev.jetw.analysis.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * Names of processes from the kernel's Process records (Start, End, DCStart, DCEnd, Defunct: their
 * ImageFileName, "java.exe" on Windows, the command name on Linux). Feed records in time order and the last
 * name given wins; memory is an entry per process.
 */
public final class KernelProcessNames {

    private final Map<Integer, String> names = new HashMap<>();

    /** Takes the name a Process record gives its process (other events are ignored). */
    public void accept(KernelEvent k) {
        if (k.kernelClass() != KernelClass.PROCESS || !k.fields().containsKey("imageFileName")) {
            return;
        }
        String name = k.text("imageFileName");
        if (name != null && !name.isEmpty()) {
            names.put(k.processId(), name);
        }
    }

    /** The image name of process {@code pid} by the kernel's records, or null. */
    public String name(int pid) {
        return names.get(pid);
    }
}
