package dev.jetw.etw.portable.linux;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * Removes the instances a dead JVM left behind (killed with SIGKILL, crashed: no shutdown hook ran). An
 * instance is stale when its name is one of jetw's and no process with its pid AND start time lives; a
 * live JVM's instances are never touched, nor instances of other tools (names not starting "jetw-").
 * A stale instance's buffers may still be filling (tracing on, events enabled, but its pid filter lists
 * dead tids, so few events), and it holds its buffer memory until removed.
 */
final class StaleInstances {

    private StaleInstances() {
    }

    /** The names of jetw instances whose owner is gone. */
    public static List<String> find(File tracefsRoot) {
        List<String> out = new ArrayList<String>();
        String[] names = new File(tracefsRoot, "instances").list();
        if (names == null) {
            return out;
        }
        for (String n : names) {
            InstanceName in = InstanceName.parse(n);
            if (in != null && !ProcFs.isAlive(in.pid, in.startTime)) {
                out.add(n);
            }
        }
        return out;
    }

    /** Removes them; returns the names removed (one still busy, e.g. a reader of it still open, stays). */
    public static List<String> sweep(File tracefsRoot) {
        List<String> removed = new ArrayList<String>();
        for (String n : find(tracefsRoot)) {
            if (TraceInstance.existing(tracefsRoot, n).remove(200)) {
                removed.add(n);
            }
        }
        return removed;
    }
}
