package dev.jetw.bootstrap;

import java.util.concurrent.Callable;

/** A Callable submitted from a traced call (see {@link LinkedTask}). */
public final class LinkedCallable<V> extends LinkedTask implements Callable<V> {

    private final Callable<V> task;

    LinkedCallable(Callable<V> task, long link, long dueNanos, int kind, int epoch) {
        super(link, dueNanos, kind, epoch, 0L);
        this.task = task;
    }

    @Override
    public V call() throws Exception {
        long token = begin();
        try {
            return task.call();
        } finally {
            end(token);
        }
    }

    @Override
    public Callable<V> delegate() {
        return task;
    }
}
