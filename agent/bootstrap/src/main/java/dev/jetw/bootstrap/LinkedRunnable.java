package dev.jetw.bootstrap;

/** A Runnable submitted from a traced call (see {@link LinkedTask}). */
public final class LinkedRunnable extends LinkedTask implements Runnable {

    private final Runnable task;

    LinkedRunnable(Runnable task, long link, long dueNanos, int kind, int epoch, long periodNanos) {
        super(link, dueNanos, kind, epoch, periodNanos);
        this.task = task;
    }

    @Override
    public void run() {
        long token = begin();
        try {
            task.run();
        } finally {
            end(token);
        }
    }

    @Override
    public Runnable delegate() {
        return task;
    }
}
