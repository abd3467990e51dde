package com.acme.ramp;

/** Runs hot: {@link #step} loops for ever, so it and its callers are the innermost frames of every sample of the thread. */
public final class Spinner {

    static volatile long sink;

    private Spinner() {
    }

    static void spin() {
        step();
    }

    static void step() {
        long x = 0;
        while (true) {
            x = x * 31 + 7;
            sink = x;
        }
    }

    /** Never called while the test runs: a cold method of a class that holds hot ones. */
    public static String describe() {
        return "spinner " + sink;
    }
}
