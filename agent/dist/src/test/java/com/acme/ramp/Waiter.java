package com.acme.ramp;

/** A thread that waits (sleeping, as a thread blocked on I/O would): seen in the samples, never on CPU. */
public final class Waiter implements Runnable {

    @Override
    public void run() {
        idle();
    }

    static void idle() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
