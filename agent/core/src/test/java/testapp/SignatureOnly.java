package testapp;

/** Named only in {@link Signatures#use}'s signature; loaded when {@link Signatures#useNew} first runs. */
public class SignatureOnly {

    public long get() {
        return new Getters().spin();
    }
}
