package dev.jetw.etw.portable.linux;

/**
 * A set of positive ints (thread ids): open addressing over an int array, so that a lookup per context switch
 * boxes nothing. One thread only (the scheduler poller).
 */
final class IntSet {

    private static final int EMPTY = 0;

    private int[] keys = new int[64];
    private int size;

    /** Adds {@code v} (&gt; 0); returns false when it was there already (or is not positive). */
    boolean add(int v) {
        if (v <= 0) {
            return false;
        }
        if (size * 2 >= keys.length) {
            grow();
        }
        int i = slot(v);
        if (keys[i] == v) {
            return false;
        }
        keys[i] = v;
        size++;
        return true;
    }

    boolean contains(int v) {
        return v > 0 && keys[slot(v)] == v;
    }

    /** Removes {@code v}; returns whether it was there. */
    boolean remove(int v) {
        if (v <= 0) {
            return false;
        }
        int i = slot(v);
        if (keys[i] != v) {
            return false;
        }
        keys[i] = EMPTY;
        size--;
        // Re-insert the run that followed the hole, so that lookups do not stop at it.
        int mask = keys.length - 1;
        for (int j = (i + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int k = keys[j];
            keys[j] = EMPTY;
            keys[slot(k)] = k;
        }
        return true;
    }

    int size() {
        return size;
    }

    private int slot(int v) {
        int mask = keys.length - 1;
        int i = (v * 0x9E3779B9) >>> 7 & mask;
        while (keys[i] != EMPTY && keys[i] != v) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        int[] old = keys;
        keys = new int[old.length * 2];
        for (int k : old) {
            if (k != EMPTY) {
                keys[slot(k)] = k;
            }
        }
    }
}
