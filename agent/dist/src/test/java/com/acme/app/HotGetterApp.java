package com.acme.app;

/** A getter called 20,000 times (adaptive exclusion excludes it) beside a method that sleeps (never excluded). */
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
        for (int i = 0; i < 20_000; i++) {
            sum += app.value();
        }
        for (int i = 0; i < 3; i++) {
            pause();
        }
        System.out.println("sum " + sum);
    }
}
