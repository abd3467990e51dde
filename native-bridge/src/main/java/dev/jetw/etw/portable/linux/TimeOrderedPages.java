package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Hands the records of an instance's pages on in time order across CPUs. A poller reads one CPU's buffer
 * after the other, so without this a thread's task_newtask logged on CPU 1 could be decoded after its first
 * switch on CPU 0, or its exit before its creation (DESIGN pitfall 16): the task list and the per-thread
 * "on a CPU" state need the events in the order they happened.
 *
 * <p>Each page is copied (pooled buffers) and indexed per CPU, already in time order within a CPU. After a
 * pass, every record up to the pass's watermark (the earliest moment at which a CPU's buffer was seen
 * empty, less a margin for records reserved but not yet committed then) is handed on, merged across CPUs;
 * later ones wait for the next pass. Losses go on at once: their order does not matter.
 */
final class TimeOrderedPages implements PagePoller.PageSink {

    /** A record reserved before a CPU's buffer was seen empty may still be committing then: held this much longer. */
    static final long MARGIN_NANOS = 1_000_000L;

    /** One CPU's waiting records, in time order: parallel arrays used as a queue. */
    private static final class Run {
        long[] ts = new long[256];
        Page[] page = new Page[256];
        int[] offset = new int[256];
        int[] length = new int[256];
        int head;
        int tail;

        void add(long t, Page p, int off, int len) {
            if (tail == ts.length) {
                int n = tail - head;
                if (n * 2 > ts.length) {
                    ts = java.util.Arrays.copyOf(ts, ts.length * 2);
                    page = java.util.Arrays.copyOf(page, page.length * 2);
                    offset = java.util.Arrays.copyOf(offset, offset.length * 2);
                    length = java.util.Arrays.copyOf(length, length.length * 2);
                }
                System.arraycopy(ts, head, ts, 0, n);
                System.arraycopy(page, head, page, 0, n);
                System.arraycopy(offset, head, offset, 0, n);
                System.arraycopy(length, head, length, 0, n);
                java.util.Arrays.fill(page, n, tail, null);
                head = 0;
                tail = n;
            }
            ts[tail] = t;
            page[tail] = p;
            offset[tail] = off;
            length[tail] = len;
            tail++;
        }

        boolean isEmpty() {
            return head == tail;
        }
    }

    /** A copied page and how many of its records still wait. */
    private static final class Page {
        final ByteBuffer bytes;
        int waiting;

        Page(int size) {
            bytes = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        }
    }

    private final PageDecoder pages;
    private final PageDecoder.RecordVisitor downstream;
    private final Runnable beforeDispatch;
    private final LongConsumer afterDispatch;
    private final int pageSize;
    private final List<Run> runs = new ArrayList<Run>();
    private final ArrayDeque<Page> free = new ArrayDeque<Page>();
    private final Indexer indexer = new Indexer();
    private Page current;

    /**
     * @param beforeDispatch run before each batch is handed on (the translator applies what the starting thread
     *                       handed over: the rundown)
     */
    TimeOrderedPages(int pageSize, PageDecoder pages, PageDecoder.RecordVisitor downstream, Runnable beforeDispatch) {
        this(pageSize, pages, downstream, beforeDispatch, null);
    }

    /**
     * @param afterDispatch given, after each batch, the moment up to which every record has now been handed on (even
     *                      when there was none): the file tracker releases what it held for confirmation by it, so an
     *                      idle process's records do not wait for its next system call
     */
    TimeOrderedPages(int pageSize, PageDecoder pages, PageDecoder.RecordVisitor downstream, Runnable beforeDispatch,
                     LongConsumer afterDispatch) {
        this.pageSize = pageSize;
        this.pages = pages;
        this.downstream = downstream;
        this.beforeDispatch = beforeDispatch;
        this.afterDispatch = afterDispatch;
    }

    @Override
    public void page(int cpu, ByteBuffer page) {
        Page p = free.isEmpty() ? new Page(pageSize) : free.poll();
        p.bytes.clear();
        p.bytes.put(page);
        p.bytes.flip();
        while (runs.size() <= cpu) {
            runs.add(new Run());
        }
        current = p;
        indexer.run = runs.get(cpu);
        pages.decode(cpu, p.bytes, indexer);
        if (p.waiting == 0) {
            free.add(p);
        }
    }

    @Override
    public void passDone(long watermark) {
        long until = watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark - MARGIN_NANOS;
        dispatch(until);
        if (afterDispatch != null) {
            afterDispatch.accept(until);
        }
    }

    /** Hands on, merged in time order, every waiting record up to {@code until}. */
    private void dispatch(long until) {
        beforeDispatch.run();
        while (true) {
            int best = -1;
            long bestTs = until;
            for (int cpu = 0; cpu < runs.size(); cpu++) {
                Run r = runs.get(cpu);
                if (!r.isEmpty() && r.ts[r.head] <= bestTs) {
                    best = cpu;
                    bestTs = r.ts[r.head];
                }
            }
            if (best < 0) {
                return;
            }
            Run r = runs.get(best);
            Page p = r.page[r.head];
            int off = r.offset[r.head];
            int len = r.length[r.head];
            r.page[r.head] = null;
            r.head++;
            try {
                downstream.record(best, bestTs, p.bytes, off, len);
            } finally {
                if (--p.waiting == 0) {
                    free.add(p);
                }
            }
        }
    }

    /** Records how many are waiting, for tests. */
    int waiting() {
        int n = 0;
        for (Run r : runs) {
            n += r.tail - r.head;
        }
        return n;
    }

    /** Indexes a page's records into its CPU's run; losses go straight on. */
    private final class Indexer implements PageDecoder.RecordVisitor {
        Run run;

        @Override
        public void record(int cpu, long timestamp, ByteBuffer page, int offset, int length) {
            run.add(timestamp, current, offset, length);
            current.waiting++;
        }

        @Override
        public void lost(int cpu, long pageTimestamp, long count) {
            downstream.lost(cpu, pageTimestamp, count);
        }
    }
}
