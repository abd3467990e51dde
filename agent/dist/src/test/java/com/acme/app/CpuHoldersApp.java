package com.acme.app;

/**
 * A CPU-bound call that other processes keep from the CPU, for {@code jetw etl why}'s "CPUs while ready"
 * (KernelWhyIT): spinRequest() spins 300 ms of wall time, three times, while the test runs busy shell loops of
 * its own on every CPU. main is not traced (excluded), so these are top-level calls. Prints "done" at the end.
 */
public final class CpuHoldersApp {

    static volatile long sink;

    public static void main(String[] args) {
        for (int i = 0; i < 3; i++) {
            spinRequest();
        }
        System.out.println("done");
    }

    static void spinRequest() {
        long end = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x = x * 31 + 7;
        }
        sink = x;
    }
}
