package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread that reads an instance's ring buffers: every interval, for each CPU, while
 * {@code per_cpu/cpuN/stats} shows unread events, one page (sub-buffer) from
 * {@code per_cpu/cpuN/trace_pipe_raw}, handed to a {@link PageSink} on this thread (the page buffer is
 * reused: the sink copies what it keeps). Reading consumes the page from the kernel's buffer.
 *
 * <p>Why polling (docs/linux-kernel-events.md, DESIGN measurements): Java can neither poll(2) a tracefs file
 * nor open it O_NONBLOCK, and a thread per CPU blocked in read(2) wakes once per event, copies about four
 * events per read, and its own switches with the traced threads are recorded: the traced workload lost up
 * to 95 % of its throughput that way. A poller never calls read(2) unless the stats file (kept open, one
 * pread at offset 0 per look) shows unread events, so it never blocks, and it stops with a flag and one
 * final pass. With 64 KiB sub-buffers it copies 700-1000 events per read.
 */
final class PagePoller {

    /** Consumes one page (valid until the call returns). */
    interface PageSink {
        void page(int cpu, ByteBuffer page);

        /**
         * A pass over every CPU ended: each buffer was seen empty at {@code watermark} or later (a
         * {@code System.nanoTime()} reading), so every record up to then has been read; {@code Long.MAX_VALUE}
         * after the last pass.
         */
        void passDone(long watermark);
    }

    /** A pass never waits longer than this for a CPU whose buffer is never seen empty (it keeps filling). */
    static final long MAX_WATERMARK_LAG_NANOS = 1_000_000_000L;
    /** After a pass that found a CPU's ring a quarter full or more, the next pass comes after this, not the interval. */
    static final long BUSY_INTERVAL_MILLIS = 10;

    private final TraceInstance instance;
    private final List<Integer> cpus;
    private final int pageSize;
    private final PageSink sink;
    private final long intervalMillis;
    /** One CPU's ring, in bytes: how full a pass found it decides when the next pass comes. */
    private final long ringBytes;
    private final String threadName;
    private final List<FileChannel> pipes = new ArrayList<FileChannel>();
    private final List<FileChannel> stats = new ArrayList<FileChannel>();
    private final ByteBuffer statsBuf = ByteBuffer.allocate(1024);
    private final Object wake = new Object();
    private volatile boolean stopping;
    private Thread thread;
    private volatile int tid;

    final AtomicLong reads = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    /** read(2) returned 0 although the file is open: the kernel's "nothing copied this time", not end of file. */
    final AtomicLong emptyReads = new AtomicLong();
    volatile Throwable failure;
    /** Pages whose sink threw (the page is lost, the poller goes on); the first exception is kept. */
    final AtomicLong sinkFailures = new AtomicLong();
    volatile RuntimeException firstSinkFailure;

    PagePoller(TraceInstance instance, int pageSize, PageSink sink, long intervalMillis, long ringBytes, String threadName) {
        this.instance = instance;
        this.cpus = instance.cpus();
        this.pageSize = pageSize;
        this.sink = sink;
        this.intervalMillis = intervalMillis;
        this.ringBytes = ringBytes;
        this.threadName = threadName;
    }

    /** Opens the files and starts the thread; returns its kernel tid (to keep it out of the pid filter). */
    int start() throws IOException {
        for (int cpu : cpus) {
            pipes.add(FileChannel.open(new File(instance.dir(), "per_cpu/cpu" + cpu + "/trace_pipe_raw").toPath(),
                    StandardOpenOption.READ));
            stats.add(FileChannel.open(new File(instance.dir(), "per_cpu/cpu" + cpu + "/stats").toPath(),
                    StandardOpenOption.READ));
        }
        thread = PollerThreads.start(threadName, () -> tid = dev.jetw.etw.OsThreadId.current(), this::loop,
                e -> failure = e);
        return tid;
    }

    private void loop() throws IOException, InterruptedException {
        ByteBuffer buf = ByteBuffer.allocateDirect(pageSize).order(ByteOrder.nativeOrder());
        long[] seenEmpty = new long[cpus.size()];
        java.util.Arrays.fill(seenEmpty, Long.MIN_VALUE);
        while (true) {
            boolean last = stopping; // read before the pass: the pass after stop() drains what is left
            long passStart = System.nanoTime();
            long watermark = Long.MAX_VALUE;
            boolean busy = false;
            for (int i = 0; i < cpus.size(); i++) {
                long before = bytes.get();
                int empty = 0;
                while (true) {
                    long now = System.nanoTime();
                    if (!unread(i)) {
                        seenEmpty[i] = now;
                        break;
                    }
                    if (empty >= 3) {
                        break; // chasing the writer on its page: this CPU's watermark stays where it was
                    }
                    empty = readPage(i, buf) ? 0 : empty + 1;
                }
                watermark = Math.min(watermark, seenEmpty[i]);
                busy |= bytes.get() - before >= ringBytes / 4;
            }
            try {
                sink.passDone(last ? Long.MAX_VALUE : Math.max(watermark, passStart - MAX_WATERMARK_LAG_NANOS));
            } catch (RuntimeException e) {
                if (sinkFailures.getAndIncrement() == 0) {
                    firstSinkFailure = e;
                }
            }
            if (last) {
                return;
            }
            // A ring found a quarter full would overflow within a few intervals at that rate: come back sooner
            // (the cost stays in proportion to the events: each pass then reads about as much as before).
            synchronized (wake) {
                if (!stopping) {
                    wake.wait(busy ? Math.min(BUSY_INTERVAL_MILLIS, intervalMillis) : intervalMillis);
                }
            }
        }
    }

    /**
     * One read(2) of a page. False when it copied nothing: read(2) on trace_pipe_raw returns 0 not only at
     * close but also when the kernel could not copy an event this time (seen under load while the reader
     * chases the writer on the same page), so 0 is not end of file.
     */
    private boolean readPage(int index, ByteBuffer buf) throws IOException {
        buf.clear();
        int n = pipes.get(index).read(buf);
        if (n <= 0) {
            emptyReads.incrementAndGet();
            return false;
        }
        reads.incrementAndGet();
        bytes.addAndGet(n);
        buf.flip();
        try {
            sink.page(cpus.get(index), buf);
        } catch (RuntimeException e) {
            // A bug in a sink must not stop the reading: the buffers would fill and the rest be lost unreported.
            if (sinkFailures.getAndIncrement() == 0) {
                firstSinkFailure = e;
            }
        }
        return true;
    }

    /** True when the CPU's buffer holds unread events: "entries: N", the first line of its stats file. */
    private boolean unread(int index) throws IOException {
        ByteBuffer b = statsBuf;
        b.clear();
        stats.get(index).read(b, 0);
        int i = 0;
        while (i < b.position() && b.get(i) != ':') {
            i++;
        }
        long n = 0;
        for (i++; i < b.position(); i++) {
            byte c = b.get(i);
            if (c >= '0' && c <= '9') {
                n = n * 10 + (c - '0');
            } else if (c == '\n') {
                break;
            }
        }
        return n > 0;
    }

    /**
     * Reads what is left and stops: call after tracing_on was set to 0, so the buffers stop filling. Closes
     * the files (rmdir of the instance answers EBUSY while they are open). False when the thread did not end
     * within {@code waitMillis}.
     */
    boolean stop(long waitMillis) {
        synchronized (wake) {
            stopping = true;
            wake.notifyAll();
        }
        boolean ended = PollerThreads.join(thread, waitMillis);
        List<FileChannel> all = new ArrayList<FileChannel>(pipes);
        all.addAll(stats);
        for (FileChannel c : all) {
            try {
                c.close();
            } catch (IOException e) {
                // closing: nothing more to read from it
            }
        }
        return ended;
    }

    /** CPU time the poller used so far (decoding and writing the records included: they run on it), ns; -1 unknown. */
    long cpuNanos() {
        return PollerThreads.cpuNanos(thread);
    }
}
