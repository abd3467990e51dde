package com.acme.app;

import dev.jetw.api.Jetw;

/**
 * A known call tree, run under -javaagent. Per run: outer x2 (main thread and thread "jetw-worker"),
 * middle x5, inner x11, failing x1 (exits by IllegalStateException), QuietWork.quiet x1 (a rule at
 * level verbose, filtered by the session's level), checkpoint "outer-begin" x2 inside outer, and inside
 * failing "about-to-fail" at warning and "noise" at verbose (filtered).
 */
public final class CallTreeApp {

    public static void main(String[] args) throws Exception {
        int onMain = outer(3);
        int[] onWorker = new int[1];
        Thread worker = new Thread(() -> onWorker[0] = outer(2), "jetw-worker");
        worker.start();
        worker.join();
        try {
            failing();
        } catch (IllegalStateException e) {
            System.out.println("caught " + e.getMessage());
        }
        System.out.println("quiet " + QuietWork.quiet());
        System.out.println("result " + onMain + " " + onWorker[0]);
    }

    static int outer(int n) {
        Jetw.checkpoint("outer-begin");
        int sum = 0;
        for (int i = 0; i < n; i++) {
            sum += middle(i);
        }
        return sum;
    }

    static int middle(int i) {
        return inner(i) + inner(i + 1);
    }

    static int inner(int i) {
        return i * i;
    }

    static void failing() {
        inner(1);
        Jetw.checkpoint("about-to-fail", Jetw.WARNING);
        Jetw.checkpoint("noise", Jetw.VERBOSE); // above the session's level: filtered
        throw new IllegalStateException("boom");
    }
}
