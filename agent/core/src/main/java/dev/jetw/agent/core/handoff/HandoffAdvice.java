package dev.jetw.agent.core.handoff;

import dev.jetw.bootstrap.Handoff;
import net.bytebuddy.asm.Advice;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The advice {@link HandoffInstrumenter} inlines into the JDK's hand-off points. Each only replaces
 * the task argument by {@link Handoff}'s result (the same object when nothing is linked), so the JDK
 * method's own logic runs unchanged; suppress = Throwable keeps any failure out of the application.
 * Only static calls into the boot-class-path Handoff: nothing of the agent's loader is referenced.
 */
final class HandoffAdvice {

    private HandoffAdvice() {
    }

    /**
     * new FutureTask(Runnable, T): what submit, invokeAll and invokeAny of every AbstractExecutorService make,
     * and what applications make themselves to hand to execute() (the FutureTask keeps its type: an
     * afterExecute that casts it still works; the wrapper is inside).
     */
    static final class FutureTaskOfRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Handoff.wrap(task, Handoff.EXECUTOR);
        }
    }

    /** new FutureTask(Callable). */
    static final class FutureTaskOfCallable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
            task = Handoff.wrap(task, Handoff.EXECUTOR);
        }
    }

    /** ThreadPoolExecutor.execute(Runnable) (see Handoff.wrapExecute for what is left unwrapped). */
    static final class PoolExecute {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This ThreadPoolExecutor pool, @Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Handoff.wrapExecute(pool, task);
        }
    }

    /** ThreadPoolExecutor.shutdownNow(): the application gets back its own tasks. */
    static final class ShutdownNow {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Return List<Runnable> tasks) {
            Handoff.unwrapAll(tasks);
        }
    }

    /**
     * ForkJoinPool.execute/submit(Runnable) (see Handoff.wrapForkJoin for what is left unwrapped).
     */
    static final class ForkJoinRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Handoff.wrapForkJoin(task);
        }
    }

    /** ForkJoinPool.submit(Callable). */
    static final class ForkJoinCallable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
            task = Handoff.wrap(task, Handoff.FORK_JOIN);
        }
    }

    /** ForkJoinPool.invokeAll(Collection): a copy holding the linked tasks, in the same order. */
    static final class ForkJoinInvokeAll {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Collection<? extends Callable<?>> tasks) {
            if (Handoff.isInstalled() && tasks != null) {
                java.util.ArrayList<Callable<?>> linked = new java.util.ArrayList<Callable<?>>(tasks.size());
                for (Callable<?> t : tasks) {
                    linked.add(Handoff.wrap(t, Handoff.FORK_JOIN));
                }
                tasks = linked;
            }
        }
    }

    /** ScheduledThreadPoolExecutor.schedule(Runnable, delay, unit), also behind its execute and submit. */
    static final class ScheduleRunnable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long delay,
                          @Advice.Argument(2) TimeUnit unit) {
            task = Handoff.wrapScheduled(task, delay, 0L, unit);
        }
    }

    /** ScheduledThreadPoolExecutor.schedule(Callable, delay, unit). */
    static final class ScheduleCallable {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task, @Advice.Argument(1) long delay,
                          @Advice.Argument(2) TimeUnit unit) {
            task = Handoff.wrapScheduled(task, delay, unit);
        }
    }

    /** ScheduledThreadPoolExecutor.scheduleAtFixedRate: each run is due a period after the last due time. */
    static final class ScheduleAtFixedRate {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long initialDelay,
                          @Advice.Argument(2) long period, @Advice.Argument(3) TimeUnit unit) {
            task = Handoff.wrapScheduled(task, initialDelay, period, unit);
        }
    }

    /** ScheduledThreadPoolExecutor.scheduleWithFixedDelay: each run is due a delay after the last one ended. */
    static final class ScheduleWithFixedDelay {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task, @Advice.Argument(1) long initialDelay,
                          @Advice.Argument(2) long delay, @Advice.Argument(3) TimeUnit unit) {
            task = Handoff.wrapScheduled(task, initialDelay, -delay, unit);
        }
    }

    /** A JDK executor that starts a thread per task (CompletableFuture's when the common pool has one thread). */
    static final class ThreadPerTaskExecute {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
            task = Handoff.wrap(task, Handoff.EXECUTOR);
        }
    }
}
