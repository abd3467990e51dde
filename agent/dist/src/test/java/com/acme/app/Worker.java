package com.acme.app;

/** The attach target's traced work: compute calls square n times. */
public final class Worker {

    public static long compute(int n) {
        long sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += square(i);
        }
        return sum;
    }

    static long square(long i) {
        return i * i;
    }
}
