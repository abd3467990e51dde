package com.acme.app;

/** A monitor held while another thread is blocked on it: what the why tests explain as contention and waiting. */
final class Contention {

    private Contention() {
    }

    /**
     * Starts {@code contender} while holding {@code monitor}, waits until it is blocked on the monitor, holds it
     * {@code millis} more, then lets it in, joins it and prints "tid NAME JAVA_ID".
     */
    static void holdWhileBlocked(Object monitor, Thread contender, long millis) throws InterruptedException {
        synchronized (monitor) {
            contender.start();
            while (contender.getState() != Thread.State.BLOCKED) {
                Thread.yield();
            }
            Thread.sleep(millis);
        }
        contender.join();
        System.out.println("tid " + contender.getName() + " " + contender.getId());
    }
}
