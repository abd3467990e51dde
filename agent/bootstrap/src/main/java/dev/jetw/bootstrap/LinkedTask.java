package dev.jetw.bootstrap;

/**
 * What a task handed to another thread carries from its submission: the submitting call's link
 * ({@link HandoffHandler#link}), when it became due to run, the kind of hand-off and the attach it
 * was made in. A task of an earlier attach (still queued, or periodic) runs untouched.
 */
public abstract class LinkedTask {

    final long link;
    final int kind;
    final int epoch;
    /** Scheduled repetition: > 0 fixed rate, < 0 fixed delay (as ScheduledThreadPoolExecutor), 0 one-shot. */
    final long periodNanos;
    /** System.nanoTime() at which the task was due: its submission, or the end of its scheduled delay. */
    private long dueNanos;

    LinkedTask(long link, long dueNanos, int kind, int epoch, long periodNanos) {
        this.link = link;
        this.dueNanos = dueNanos;
        this.kind = kind;
        this.epoch = epoch;
        this.periodNanos = periodNanos;
    }

    /** The task the application submitted. */
    public abstract Object delegate();

    final long begin() {
        return Handoff.begin(this, dueNanos);
    }

    final void end(long token) {
        // A periodic task is due again a period after its last due time (fixed rate) or after this run (fixed delay).
        if (periodNanos > 0) {
            dueNanos += periodNanos;
        } else if (periodNanos < 0) {
            dueNanos = System.nanoTime() - periodNanos;
        }
        Handoff.end(token);
    }

    @Override
    public String toString() {
        return String.valueOf(delegate());
    }
}
