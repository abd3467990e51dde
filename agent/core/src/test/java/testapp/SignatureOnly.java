package testapp;

/** Named only in {@link Signatures#use}'s signature; loaded when {@link Signatures#useNew} first runs. */
public class SignatureOnly {

    public long get() {
        long start = System.nanoTime();
        long n = 0;
        while (System.nanoTime() - start < 20_000) {
            n++;
        }
        return n;
    }
}
