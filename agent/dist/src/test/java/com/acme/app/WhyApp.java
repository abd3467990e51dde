package com.acme.app;

import java.util.ArrayList;
import java.util.List;

/**
 * Three calls slow for known reasons, for {@code jetw etl why} (WhyIT): sleepRequest() sleeps 100 ms
 * in a traced child nap() and 100 ms itself; lockRequest() on thread "jetw-why-contender" blocks on a
 * monitor main holds for 150 ms after it is blocked; gcRequest() runs System.gc(). main and contend
 * are not traced (excluded), so the three are top-level calls. Waits two seconds for JFR's flush.
 * Prints "tid NAME JAVA_ID" for the threads.
 */
public final class WhyApp {

    static final Object MONITOR = new Object();
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        System.out.println("tid main " + Thread.currentThread().getId());
        RuntimeEventsApp.awaitJvmEvents();
        sleepRequest();
        contend();
        gcRequest();
        Thread.sleep(2_000);
        System.out.println("done");
    }

    static void sleepRequest() throws InterruptedException {
        nap();
        Thread.sleep(100);
    }

    static void nap() throws InterruptedException {
        Thread.sleep(100);
    }

    static void contend() throws InterruptedException {
        Contention.holdWhileBlocked(MONITOR, new Thread(WhyApp::lockRequest, "jetw-why-contender"), 150);
    }

    static void lockRequest() {
        synchronized (MONITOR) {
            sink = "entered";
        }
    }

    static void gcRequest() {
        List<byte[]> garbage = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            garbage.add(new byte[64 * 1024]);
        }
        sink = garbage;
        System.gc();
    }
}
