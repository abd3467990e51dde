package testapp;

/** A hot getter and a method that is never short (it spins 20 us), for adaptive exclusion. */
public class Getters {

    private int value = 7;

    public int value() {
        return value;
    }

    /** Lasts 1.5 ms: above the threshold adaptive exclusion gives a hot method (1 ms). */
    public long slow() {
        long start = System.nanoTime();
        long n = 0;
        while (System.nanoTime() - start < 1_500_000) {
            n++;
        }
        return n;
    }

    public long spin() {
        long start = System.nanoTime();
        long n = 0;
        while (System.nanoTime() - start < 20_000) {
            n++;
        }
        return n;
    }
}
