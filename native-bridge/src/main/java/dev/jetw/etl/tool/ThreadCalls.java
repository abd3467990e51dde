package dev.jetw.etl.tool;

import java.util.ArrayList;
import java.util.List;

/** The call tree of one thread: its top-level calls and checkpoints, in time order. */
final class ThreadCalls {

    final int processId;
    final int threadId;
    final List<CallNode> roots = new ArrayList<>();

    ThreadCalls(int processId, int threadId) {
        this.processId = processId;
        this.threadId = threadId;
    }
}
