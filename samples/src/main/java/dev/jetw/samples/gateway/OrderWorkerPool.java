package dev.jetw.samples.gateway;

import dev.jetw.api.Jetw;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fixed pool of order workers. Tasks run wrapped in a {@link FutureTask}, so an exception that
 * escapes an order task does not kill the worker thread; {@link #afterExecute} fetches it from the
 * future (the idiom from ThreadPoolExecutor's javadoc) and has the client answered.
 */
final class OrderWorkerPool extends ThreadPoolExecutor {
    /** Bounded: each client has at most one order in flight, so this only fills under abuse. */
    private static final int QUEUE_CAPACITY = 1024;

    OrderWorkerPool(int workers) {
        super(workers, workers, 0L, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<Runnable>(QUEUE_CAPACITY),
                new NamedThreads("order-worker-"), new ThreadPoolExecutor.AbortPolicy());
    }

    /** Throws RejectedExecutionException when shut down or full; the caller answers the client. */
    void submitOrder(OrderTask task) {
        execute(new OrderFuture(task));
    }

    @Override
    protected void afterExecute(Runnable r, Throwable thrown) {
        super.afterExecute(r, thrown);
        if (!(r instanceof OrderFuture)) {
            return;
        }
        OrderFuture future = (OrderFuture) r;
        try {
            future.get();
        } catch (ExecutionException escaped) {
            Jetw.checkpoint("order task failed", Jetw.ERROR);
            future.task.failed(escaped.getCause());
        } catch (CancellationException | InterruptedException notRun) {
            future.task.failed(notRun);
        }
    }

    /** A FutureTask that remembers its order task, so afterExecute can answer the right client. */
    private static final class OrderFuture extends FutureTask<Void> {
        final OrderTask task;

        OrderFuture(OrderTask task) {
            super(task, null);
            this.task = task;
        }
    }

    /** Names threads so the trace's thread rundown says what each thread is. */
    static final class NamedThreads implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger next = new AtomicInteger(1);

        NamedThreads(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread thread = new Thread(r, prefix + next.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
