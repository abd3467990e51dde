package com.acme.app;

import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One traced submitting method per hand-off kind (the tests include this class and HandoffWork):
 * each hands tasks that call HandoffWork.work(label) to another thread and waits for them.
 */
public final class HandoffScenarios {

    /** The forced queue wait of {@link #viaBusyPool}: the pool's only thread is held at least this long. */
    static final long FORCED_DELAY_MILLIS = 100;

    private HandoffScenarios() {
    }

    public static void viaExecute(ExecutorService pool) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            HandoffWork.work("execute");
            done.countDown();
        });
        done.await();
    }

    public static void viaSubmit(ExecutorService pool) throws Exception {
        pool.submit(() -> HandoffWork.work("submit")).get();
    }

    public static void viaInvokeAll(ExecutorService pool) throws Exception {
        Callable<String> a = () -> HandoffWork.work("invokeAll-1");
        Callable<String> b = () -> HandoffWork.work("invokeAll-2");
        for (java.util.concurrent.Future<String> f : pool.invokeAll(Arrays.asList(a, b))) {
            f.get();
        }
    }

    public static void viaForkJoin(ForkJoinPool pool) throws Exception {
        pool.submit(() -> HandoffWork.work("fj-submit")).get();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            HandoffWork.work("fj-execute");
            done.countDown();
        });
        done.await();
    }

    /** Stage 2 is handed over by stage 1's thread: stage 1 waits until the chain is built. */
    public static void viaCompletableChain(ExecutorService first, ExecutorService second) throws Exception {
        CountDownLatch built = new CountDownLatch(1);
        CompletableFuture<String> chain = CompletableFuture.supplyAsync(() -> {
            await(built);
            return HandoffWork.work("cf-1");
        }, first).thenApplyAsync(x -> HandoffWork.work("cf-2"), second);
        built.countDown();
        chain.get();
    }

    public static void viaCompletableDefault() throws Exception {
        CompletableFuture.runAsync(() -> HandoffWork.work("cf-default")).get();
    }

    public static void viaThread() throws Exception {
        Thread t = new Thread(() -> HandoffWork.work("thread"), "handoff-thread");
        t.start();
        t.join();
    }

    /** Thread.ofVirtual().start(task) by reflection (the tests compile for 17); false below JDK 21. */
    public static boolean viaVirtualThread() throws Exception {
        if (Runtime.version().feature() < 21) {
            return false;
        }
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Runnable task = () -> HandoffWork.work("virtual");
        Thread t = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class).invoke(builder, task);
        t.join();
        return true;
    }

    /** Returns the task's own measure of how late it started after its 30 ms delay, in ns. */
    public static long viaScheduled(ScheduledExecutorService pool) throws Exception {
        long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30);
        AtomicLong late = new AtomicLong();
        pool.schedule(() -> {
            late.set(System.nanoTime() - due);
            HandoffWork.work("scheduled");
        }, 30, TimeUnit.MILLISECONDS).get();
        return late.get();
    }

    /**
     * The single thread of {@code pool} is held by {@code blocker} (submitted by the caller, untraced)
     * until at least FORCED_DELAY_MILLIS after the task is submitted; returns the task's own measure of
     * its queue wait in ns.
     */
    public static long viaBusyPool(ExecutorService pool, CountDownLatch blocker) throws Exception {
        AtomicLong waited = new AtomicLong();
        long[] submitted = new long[1];
        Runnable task = () -> { // made before the clock read: a lambda's first linkage takes milliseconds
            waited.set(System.nanoTime() - submitted[0]);
            HandoffWork.work("delayed");
        };
        submitted[0] = System.nanoTime();
        java.util.concurrent.Future<?> f = pool.submit(task);
        Thread.sleep(FORCED_DELAY_MILLIS);
        blocker.countDown();
        f.get();
        return waited.get();
    }

    public static void reuseA(ExecutorService single) throws Exception {
        single.submit(() -> HandoffWork.work("reuse-a")).get();
    }

    public static void reuseB(ExecutorService single) throws Exception {
        single.submit(() -> HandoffWork.work("reuse-b")).get();
    }

    /** A task's stack: how many frames are jetw's (the LinkedRunnable wrapper while attached, none after detach). */
    public static long jetwFramesInTask(ExecutorService pool) throws Exception {
        return pool.submit(() -> Arrays.stream(new Throwable().getStackTrace())
                .filter(f -> f.getClassName().startsWith("dev.jetw.")).count()).get();
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
