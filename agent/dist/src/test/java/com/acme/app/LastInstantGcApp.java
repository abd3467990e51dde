package com.acme.app;

/**
 * A short job whose last act is a System.gc: main returns right after it, so the GC's JVM events are in JFR's final
 * chunk only, the one JFR's own shutdown hook writes at exit (docs/jvm-events.md, "Stop"). Prints "done".
 */
public final class LastInstantGcApp {

    public static void main(String[] args) throws Exception {
        RuntimeEventsApp.awaitJvmEvents();
        lastInstant();
        System.out.println("done");
    }

    static void lastInstant() {
        System.gc();
    }
}
