package com.acme.app;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Forces one event of each JVM runtime family, each inside a traced method of the thread it concerns:
 * a System.gc, a monitor two threads contend for, a parkNanos, a class loaded by a new loader, a hot
 * method compiled, a thrown exception, a short-lived thread (and a virtual thread on Java 21+), and
 * a file written and read, then waits two seconds for JFR's flush. Prints "tid NAME JAVA_ID" for the threads the test looks for,
 * and "live JAVA_ID NAME" for every thread alive at the end.
 */
public final class RuntimeEventsApp {

    static final Object MONITOR = new Object();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        System.out.println("tid main " + Thread.currentThread().getId());
        awaitJvmEvents();
        collect();
        contend();
        park();
        loadClass();
        compile();
        throwAndCatch();
        shortLivedThreads();
        fileIo(File.createTempFile("jetw-io", ".bin"));
        // JFR streams about once a second, and at JVM exit its own shutdown hook may end the stream before
        // jetw's hook drains it (docs/jvm-events.md): stay long enough for the last events to be flushed.
        Thread.sleep(2_000);
        // Every live thread, jetw's own among them (its logger, its JFR consumer): the test finds none of their events.
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            System.out.println("live " + t.getId() + " " + t.getName());
        }
        System.out.println("done");
    }

    /**
     * JFR's stream starts on jetw's own thread after premain returned (issue 31): what happens before it records
     * is not seen, so wait for it as a program that needs its first milliseconds' runtime events would.
     */
    static void awaitJvmEvents() throws InterruptedException {
        for (int i = 0; i < 1_000 && System.getProperty("jetw.jvm.events.running") == null; i++) {
            Thread.sleep(10);
        }
    }

    static void collect() throws InterruptedException {
        Thread.sleep(5);
        System.gc();
        Thread.sleep(5);
    }

    static void contend() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        Thread contender = new Thread(() -> {
            started.countDown();
            enterContended();
        }, "jetw-contender");
        synchronized (MONITOR) {
            contender.start();
            started.await();
            // Hold the monitor until the contender is blocked on it, then a little longer.
            while (contender.getState() != Thread.State.BLOCKED) {
                Thread.onSpinWait();
            }
            Thread.sleep(60);
        }
        contender.join();
        System.out.println("tid jetw-contender " + contender.getId());
    }

    static void enterContended() {
        synchronized (MONITOR) {
            sink++;
        }
    }

    static void park() {
        LockSupport.parkNanos(RuntimeEventsApp.class, 50_000_000L);
    }

    static void loadClass() throws Exception {
        URL here = RuntimeEventsApp.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {here}, null)) {
            Class<?> c = Class.forName("com.acme.app.LoadedByNewLoader", true, loader);
            sink += c.getName().length();
        }
    }

    static void compile() {
        long s = 0;
        for (int i = 0; i < 200_000; i++) {
            s += hot(i);
        }
        sink += s;
    }

    static int hot(int i) {
        return (i * 31) ^ (i >>> 3);
    }

    static void throwAndCatch() {
        try {
            thrower();
        } catch (IllegalArgumentException expected) {
            sink++;
        }
    }

    static void thrower() {
        throw new IllegalArgumentException("jetw test exception");
    }

    static void shortLivedThreads() throws Exception {
        Thread t = new Thread(() -> sink++, "jetw-short-lived");
        t.start();
        t.join();
        System.out.println("tid jetw-short-lived " + t.getId());
        if (Runtime.version().feature() >= 21) {
            Thread v = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, (Runnable) () -> sink++);
            v.join();
            System.out.println("tid virtual " + v.getId());
        }
    }

    static void fileIo(File f) throws IOException {
        byte[] data = new byte[1 << 20];
        try (FileOutputStream out = new FileOutputStream(f)) {
            out.write(data);
        }
        try (FileInputStream in = new FileInputStream(f)) {
            sink += in.read(data);
        }
        System.out.println("file " + f.getAbsolutePath());
        f.delete();
    }
}
