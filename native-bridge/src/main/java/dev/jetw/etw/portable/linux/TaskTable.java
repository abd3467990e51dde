package dev.jetw.etw.portable.linux;

import java.util.Arrays;

/**
 * The tasks the collector follows (the traced process's threads and the processes and threads they
 * create): tid to process id, and whether the task is known to be on a CPU. Open addressing over int
 * arrays, so that a lookup per context switch allocates nothing. One thread only (the scheduler poller).
 */
final class TaskTable {

    private static final int EMPTY = 0;
    /** Value flag: the task was switched in and not out since. */
    private static final long RUNNING = 1L << 32;
    /** Value flag: whether it runs is known (not for a thread found running when the collection began). */
    private static final long KNOWN = 1L << 33;

    private int[] keys = new int[256];
    private long[] values = new long[256];
    private int size;

    /**
     * Adds (or updates) {@code tid} as a task of process {@code pid}; {@code known}: it is not on a CPU now (a
     * new task), else whether it runs is unknown until its first switch (a thread of the rundown).
     */
    void add(int tid, int pid, boolean known) {
        if (tid <= 0) {
            return;
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        int i = slot(tid);
        if (keys[i] == EMPTY) {
            keys[i] = tid;
            size++;
        }
        values[i] = (pid & 0xFFFFFFFFL) | (known ? KNOWN : 0L);
    }

    /** The process of {@code tid}, or -1 when it is not followed. */
    int processOf(int tid) {
        if (tid <= 0) {
            return -1;
        }
        int i = slot(tid);
        return keys[i] == EMPTY ? -1 : (int) values[i];
    }

    boolean contains(int tid) {
        return processOf(tid) != -1;
    }

    /**
     * Records a switch in ({@code running}) or out; returns false for a switch out of a task that was not
     * known to be running (its switch in was not recorded, or it was running when the collection began).
     */
    boolean running(int tid, boolean running) {
        int i = slot(tid);
        if (tid <= 0 || keys[i] == EMPTY) {
            return true;
        }
        boolean was = (values[i] & RUNNING) != 0 || (values[i] & KNOWN) == 0;
        values[i] = (running ? values[i] | RUNNING : values[i] & ~RUNNING) | KNOWN;
        return running || was;
    }

    /** Removes an exited task: its tid may be reused by another process later. */
    void remove(int tid) {
        int i = slot(tid);
        if (tid <= 0 || keys[i] == EMPTY) {
            return;
        }
        keys[i] = EMPTY;
        size--;
        // Re-insert the run that followed the hole, so that lookups do not stop at it.
        for (int j = (i + 1) & (keys.length - 1); keys[j] != EMPTY; j = (j + 1) & (keys.length - 1)) {
            int k = keys[j];
            long v = values[j];
            keys[j] = EMPTY;
            int n = slot(k);
            keys[n] = k;
            values[n] = v;
        }
    }

    int size() {
        return size;
    }

    private int slot(int tid) {
        int mask = keys.length - 1;
        int i = (tid * 0x9E3779B9) >>> 7 & mask;
        while (keys[i] != EMPTY && keys[i] != tid) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        int[] oldKeys = keys;
        long[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int n = slot(oldKeys[i]);
                keys[n] = oldKeys[i];
                values[n] = oldValues[i];
            }
        }
    }
}
