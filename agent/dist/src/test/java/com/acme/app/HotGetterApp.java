package com.acme.app;

/**
 * A getter called 300,000 times (adaptive exclusion excludes it: hot-short at its first windows, or hot-fast after
 * 65,536 calls in a row under the hot threshold when a loaded machine left its first calls interpreted and slow; with
 * 100,000 calls a heavily loaded machine gave it the threshold so late that the run ended before it was proved fast)
 * beside a method that sleeps (never excluded).
 */
public final class HotGetterApp {

    private int value = 3;

    public int value() {
        return value;
    }

    public static void pause() throws InterruptedException {
        Thread.sleep(5);
    }

    public static void main(String[] args) throws InterruptedException {
        HotGetterApp app = new HotGetterApp();
        long sum = 0;
        for (int i = 0; i < 300_000; i++) {
            sum += app.value();
        }
        for (int i = 0; i < 3; i++) {
            pause();
        }
        System.out.println("sum " + sum);
    }
}
