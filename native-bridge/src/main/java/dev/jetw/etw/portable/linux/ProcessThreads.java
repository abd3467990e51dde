package dev.jetw.etw.portable.linux;

import dev.jetw.etw.JetwThreads;

import java.io.File;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Tells the file poller whose system calls a record holds: a thread of the traced process (the scheduler side
 * followed it into the process, or it has /proc/PID/task/TID now; the answer is kept, so each thread costs at
 * most one stat), or a child process the kernel's event-fork followed (its descriptors are its own); and whether
 * the thread is one of jetw's (JetwThreads). Used on the file poller's thread only.
 */
final class ProcessThreads implements FileIoTracker.Threads {

    private final String tasks;
    private final IntPredicate followed;
    private final Map<Integer, Boolean> known = new HashMap<Integer, Boolean>();

    /** {@code followed}: the scheduler side knows the thread as the process's (it may have exited since). */
    ProcessThreads(int pid, IntPredicate followed) {
        this.tasks = "/proc/" + pid + "/task/";
        this.followed = followed;
    }

    @Override
    public boolean inProcess(int tid) {
        Boolean b = known.get(tid);
        if (b == null) {
            b = followed.test(tid) || new File(tasks + tid).exists();
            known.put(tid, b);
        }
        return b;
    }

    @Override
    public boolean isJetw(int tid, long ts) {
        return JetwThreads.isJetwOsThread(tid, ts);
    }
}
