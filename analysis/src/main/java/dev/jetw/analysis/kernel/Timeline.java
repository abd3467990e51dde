package dev.jetw.analysis.kernel;

import java.util.Arrays;

/**
 * What a key (a thread or process id) was called over time: values with the times they were given, so that a
 * name is told as of a moment (a thread id reused after it by another process's thread does not rename it).
 * A value equal to the one before it is not kept again; memory is an entry per change.
 */
final class Timeline<V> {

    private long[] times = new long[1];
    private Object[] values = new Object[1];
    private int size;

    /** {@code value} from {@code time} on (records in time order append; one out of order is inserted). */
    void put(long time, V value) {
        int at = size;
        while (at > 0 && times[at - 1] > time) {
            at--;
        }
        if (at > 0 && values[at - 1].equals(value)) {
            return;
        }
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        System.arraycopy(times, at, times, at + 1, size - at);
        System.arraycopy(values, at, values, at + 1, size - at);
        times[at] = time;
        values[at] = value;
        size++;
    }

    /** The last value given. */
    @SuppressWarnings("unchecked")
    V last() {
        return (V) values[size - 1];
    }

    /** The value given last at or before {@code time}, else (all given later) the first. */
    @SuppressWarnings("unchecked")
    V at(long time) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] <= time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return (V) values[Math.max(0, lo - 1)];
    }
}
