package com.acme.app;

/**
 * A short job whose last act is a System.gc: main returns right after it, so the GC's JVM events are in JFR's final
 * chunk only, the one JFR's own shutdown hook writes at exit (docs/jvm-events.md, "Stop"). Prints "done".
 * It first lets the stream read its first chunk (JFR flushes about once a second): on JDK 17 a stream whose
 * recording stops before it has read anything may end without reading it (docs/jvm-events.md, "Stop").
 */
public final class LastInstantGcApp {

    public static void main(String[] args) throws Exception {
        RuntimeEventsApp.awaitJvmEvents();
        Thread.sleep(1_500);
        lastInstant();
        System.out.println("done");
    }

    static void lastInstant() {
        System.gc();
    }
}
