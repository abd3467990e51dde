package testapp;

import dev.jetw.api.Jetw;

/**
 * Known slow calls (sleeps of 60 and 80 ms) among fast ones, for the duration threshold: with
 * threshold=30ms, run, slowOuter, slowInner, both pauses and the checkpointed call are written,
 * no fast call is. The slow methods note when their bodies began, to check the START times.
 */
public class Sleepy {

    public static volatile long slowOuterBegan;
    public static volatile long slowInnerBegan;

    public int run() {
        int s = 0;
        for (int i = 0; i < 5; i++) {
            s += fast(i);
        }
        s += slowOuter();
        s += checkpointed();
        return s;
    }

    int fast(int x) {
        return x + 1;
    }

    int slowOuter() {
        slowOuterBegan = System.nanoTime();
        int s = fast(1);
        pause(60);
        return s + slowInner();
    }

    int slowInner() {
        slowInnerBegan = System.nanoTime();
        pause(80);
        return fast(2);
    }

    /** Fast, but with a checkpoint inside: written all the same. */
    int checkpointed() {
        Jetw.checkpoint("mark");
        return fast(3);
    }

    void pause(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
