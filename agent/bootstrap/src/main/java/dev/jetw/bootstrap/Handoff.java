package dev.jetw.bootstrap;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.ListIterator;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What the hand-off advice inlined into JDK executor classes calls: it wraps a task
 * submitted from a traced call in a {@link LinkedTask} that remembers the submitting call, and lets the
 * core write the DEQUEUE when the task begins. It lives on the boot class path because java.* classes
 * call it; the logic is in the core's {@link HandoffHandler}.
 *
 * <p>Without a handler (no agent, {@code propagate=false}, detached) every entry point is one volatile
 * read and returns the task unchanged; with one, a task submitted outside traced calls costs the
 * handler's {@link HandoffHandler#link} (a ThreadLocal lookup and a depth check) and is not wrapped.
 * Nothing here throws into the application: a failure is counted by {@link Dispatcher#failed} and the
 * original task goes on.
 */
public final class Handoff {

    /** DEQUEUE kinds (payload field): how the task was handed over. */
    public static final int EXECUTOR = 1;
    public static final int FORK_JOIN = 2;
    public static final int SCHEDULED = 3;
    /** A new thread (platform or virtual) made in a traced call: written by the core, not through this class. */
    public static final int THREAD_START = 4;

    private static volatile HandoffHandler handler;
    /** Incremented by every install: a task wrapped in an earlier attach is not linked by a later one. */
    private static volatile int epoch;

    /**
     * Per ThreadPoolExecutor class: whether a subclass overrides beforeExecute/afterExecute. Those hooks
     * receive the Runnable given to execute(), so a plain Runnable is not wrapped for them (the
     * application may test or cast it); a FutureTask (from submit(), or the application's own) still
     * links, it holds the wrapper inside.
     */
    private static final ClassValue<Boolean> HOOKS_OVERRIDDEN = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return overridesHooks(type);
        }
    };

    private Handoff() {
    }

    /** Installs (or, with null, removes) the core's handler. */
    public static void install(HandoffHandler h) {
        epoch++;
        handler = h;
    }

    public static boolean isInstalled() {
        return handler != null;
    }

    /** Whether {@code h} is the installed handler (not one of an earlier attach). */
    public static boolean isCurrent(HandoffHandler h) {
        return handler == h;
    }

    /** Executor.execute / submit / invokeAll, ForkJoinPool, CompletableFuture async: the task, wrapped when linked. */
    public static Runnable wrap(Runnable task, int kind) {
        HandoffHandler h = handler;
        if (h == null || task == null || task instanceof LinkedTask) {
            return task;
        }
        try {
            long link = h.link();
            return link == 0L ? task : new LinkedRunnable(task, link, System.nanoTime(), kind, epoch, 0L);
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return task;
        }
    }

    public static <V> Callable<V> wrap(Callable<V> task, int kind) {
        HandoffHandler h = handler;
        if (h == null || task == null || task instanceof LinkedTask) {
            return task;
        }
        try {
            long link = h.link();
            return link == 0L ? task : new LinkedCallable<V>(task, link, System.nanoTime(), kind, epoch);
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return task;
        }
    }

    /**
     * ThreadPoolExecutor.execute: a FutureTask (linked inside when it was made in a traced call) is left as
     * it is, and so is a plain Runnable given to a pool whose class overrides beforeExecute/afterExecute.
     */
    public static Runnable wrapExecute(ThreadPoolExecutor pool, Runnable task) {
        if (handler == null || task instanceof RunnableFuture) {
            return task;
        }
        try {
            if (pool.getClass() != ThreadPoolExecutor.class && HOOKS_OVERRIDDEN.get(pool.getClass())) {
                return task;
            }
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return task;
        }
        return wrap(task, EXECUTOR);
    }

    /**
     * ForkJoinPool.execute/submit(Runnable): a ForkJoinTask passed as a Runnable keeps its identity (submit
     * returns it), except CompletableFuture's async tasks, which execute() runs and nobody holds; and a
     * virtual thread's continuation, which its scheduler (a ForkJoinPool) runs whenever the thread is
     * started or unparked, is not a task: the virtual thread itself is linked when it is made (the core's HandoffWriter).
     */
    public static Runnable wrapForkJoin(Runnable task) {
        if (handler == null || task instanceof ForkJoinTask && !(task instanceof CompletableFuture.AsynchronousCompletionTask)
                || task != null && task.getClass().getName().startsWith("java.lang.VirtualThread")) {
            return task;
        }
        return wrap(task, FORK_JOIN);
    }

    /** ScheduledExecutorService.schedule* : due after {@code delay}; {@code period} as ScheduledThreadPoolExecutor (> 0 rate, < 0 delay). */
    public static Runnable wrapScheduled(Runnable task, long delay, long period, TimeUnit unit) {
        HandoffHandler h = handler;
        if (h == null || task == null || unit == null || task instanceof LinkedTask) {
            return task;
        }
        try {
            long link = h.link();
            if (link == 0L) {
                return task;
            }
            long p = period == 0L ? 0L : period > 0 ? unit.toNanos(period) : -unit.toNanos(-period);
            return new LinkedRunnable(task, link, System.nanoTime() + unit.toNanos(Math.max(0L, delay)), SCHEDULED, epoch, p);
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return task;
        }
    }

    public static <V> Callable<V> wrapScheduled(Callable<V> task, long delay, TimeUnit unit) {
        HandoffHandler h = handler;
        if (h == null || task == null || unit == null || task instanceof LinkedTask) {
            return task;
        }
        try {
            long link = h.link();
            return link == 0L ? task
                    : new LinkedCallable<V>(task, link, System.nanoTime() + unit.toNanos(Math.max(0L, delay)), SCHEDULED, epoch);
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return task;
        }
    }

    /**
     * ForkJoinPool.invokeAll(Collection): a copy holding the linked tasks, in the same order, or the same collection
     * when nothing is linked. What the woven call's try/catch guards: a failure (a concurrent modification while the
     * tasks are copied) leaves the application's collection in place.
     */
    public static <T> Collection<? extends Callable<T>> wrapAll(Collection<? extends Callable<T>> tasks) {
        if (handler == null || tasks == null) {
            return tasks;
        }
        ArrayList<Callable<T>> linked = new ArrayList<Callable<T>>(tasks.size());
        for (Callable<T> t : tasks) {
            linked.add(wrap(t, FORK_JOIN));
        }
        return linked;
    }

    /** ThreadPoolExecutor.shutdownNow: hands back the application's own tasks, not the wrappers. */
    public static void unwrapAll(List<Runnable> tasks) {
        if (tasks == null || tasks.isEmpty()) {
            return;
        }
        try {
            for (ListIterator<Runnable> it = tasks.listIterator(); it.hasNext(); ) {
                Runnable r = it.next();
                if (r instanceof LinkedRunnable) {
                    it.set(((LinkedRunnable) r).delegate());
                }
            }
        } catch (Throwable t) {
            Dispatcher.failed(t);
        }
    }

    static long begin(LinkedTask task, long dueNanos) {
        HandoffHandler h = handler;
        if (h == null || task.epoch != epoch) {
            return 0L;
        }
        try {
            return h.taskStarting(task.link, dueNanos, task.kind);
        } catch (Throwable t) {
            Dispatcher.failed(t);
            return 0L;
        }
    }

    static void end(long token) {
        if (token == 0L) {
            return;
        }
        HandoffHandler h = handler;
        if (h == null) {
            return;
        }
        try {
            h.taskEnded(token);
        } catch (Throwable t) {
            Dispatcher.failed(t);
        }
    }

    private static boolean overridesHooks(Class<?> type) {
        for (Class<?> c = type; c != null && c != ThreadPoolExecutor.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                String name = m.getName();
                if (name.equals("beforeExecute") || name.equals("afterExecute")) {
                    return true;
                }
            }
        }
        return false;
    }
}
