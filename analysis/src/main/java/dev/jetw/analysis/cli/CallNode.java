package dev.jetw.analysis.cli;

import java.util.ArrayList;
import java.util.List;

/** One traced call (START..END) or one checkpoint, in a thread's call tree. Times are FILETIMEs. */
final class CallNode {

    static final long NONE = Long.MIN_VALUE;

    final boolean checkpoint;
    final int methodId;
    final int instanceId;
    /** FILETIME of START (or of the checkpoint); NONE for an END whose START is not in the file. */
    long start;
    /** FILETIME of END; NONE while unfinished. */
    long end = NONE;
    /** Exception class of an exceptional END, "" for a normal return; the label of a checkpoint. */
    String text = "";
    /** The enclosing call's instance id (0 at top level, and for checkpoints). */
    int parentInstanceId;
    final List<CallNode> children = new ArrayList<>();
    /** A handed-over task (its DEQUEUE): its children are the task's calls; see CrossThreadLinks. */
    boolean task;
    /** tree: the tasks this call (or task) handed to other threads, joined to it by CrossThreadTrees; null when none. */
    List<CallNode> handed;

    CallNode(boolean checkpoint, int methodId, int instanceId, long start) {
        this.checkpoint = checkpoint;
        this.methodId = methodId;
        this.instanceId = instanceId;
        this.start = start;
    }

    boolean finished() {
        return end != NONE && start != NONE;
    }

    /** Duration in 100 ns units; -1 unless finished. */
    long duration() {
        return finished() ? end - start : -1;
    }

    /** Where it sits in time: its START, or its END when the START is not in the file. */
    long time() {
        return start != NONE ? start : end;
    }

    /** Where it ends in time: a checkpoint at its time, a call at its END, or at {@code lastFileTime} while unfinished. */
    long endOr(long lastFileTime) {
        if (checkpoint) {
            return start;
        }
        return end != NONE ? end : Math.max(time(), lastFileTime);
    }

    /** The latest END within this node (itself or below); NONE when none is finished. */
    long lastEnd() {
        long last = end;
        for (CallNode c : children) {
            last = Math.max(last, c.lastEnd());
        }
        return last;
    }

    boolean threw() {
        return !checkpoint && end != NONE && !text.isEmpty();
    }
}
