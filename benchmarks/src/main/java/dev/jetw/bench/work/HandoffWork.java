package dev.jetw.bench.work;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** Submits a batch of empty tasks and waits for the last (a single-thread pool runs them in order). Traced in the agent states. */
public final class HandoffWork {

    private static final Runnable EMPTY = () -> { };

    private HandoffWork() {
    }

    public static void submitBatch(ExecutorService pool, int tasks) throws Exception {
        Future<?> last = null;
        for (int i = 0; i < tasks; i++) {
            last = pool.submit(EMPTY);
        }
        last.get();
    }
}
