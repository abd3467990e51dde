package com.acme.app;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cross-thread test target: stdin "run" runs every scenario of HandoffScenarios once and prints
 * what the tasks measured themselves ("delayed-wait N", "scheduled-late N"), then "ran"; "frames"
 * prints "frames N", the jetw frames in a task's stack; "exit" ends. Pools are made before any
 * attach, so their threads and the JDK classes exist when the agent comes.
 */
public final class HandoffApp {

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2, named("pool-a"));
        ExecutorService second = Executors.newFixedThreadPool(2, named("pool-b"));
        ExecutorService single = Executors.newSingleThreadExecutor(named("single"));
        ForkJoinPool forkJoin = new ForkJoinPool(2);
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(1, named("sched"));
        single.submit(() -> { }).get(); // its thread is started before attach: no thread-start link
        System.out.println("ready " + ProcessHandle.current().pid());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.equals("run")) {
                HandoffScenarios.viaExecute(pool);
                HandoffScenarios.viaSubmit(pool);
                HandoffScenarios.viaInvokeAll(pool);
                HandoffScenarios.viaForkJoin(forkJoin);
                HandoffScenarios.viaCompletableChain(pool, second);
                HandoffScenarios.viaCompletableDefault();
                HandoffScenarios.viaThread();
                System.out.println(HandoffScenarios.viaVirtualThread() ? "virtual ran" : "virtual skipped: JDK " + Runtime.version().feature());
                System.out.println("scheduled-late " + HandoffScenarios.viaScheduled(scheduler));
                CountDownLatch release = new CountDownLatch(1);
                single.execute(() -> HandoffScenarios.await(release)); // untraced: holds the single thread
                System.out.println("delayed-wait " + HandoffScenarios.viaBusyPool(single, release));
                HandoffScenarios.reuseA(single);
                HandoffScenarios.reuseB(single);
                single.submit(() -> HandoffWork.work("reuse-none")).get(); // from untraced code: no link
                System.out.println("ran");
            } else if (line.equals("frames")) {
                System.out.println("frames " + HandoffScenarios.jetwFramesInTask(pool));
            } else if (line.equals("exit")) {
                pool.shutdownNow();
                second.shutdownNow();
                single.shutdownNow();
                forkJoin.shutdownNow();
                scheduler.shutdownNow();
                System.out.println("bye");
                return;
            }
        }
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> new Thread(r, prefix + "-" + n.incrementAndGet());
    }
}
