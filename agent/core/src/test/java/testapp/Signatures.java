package testapp;

/**
 * A hot getter beside a method whose signature names a class ({@link SignatureOnly}) that nothing loads
 * before {@link #useNew} runs: retransforming this class must not load it (a class loaded inside a
 * transformation is left uninstrumented).
 */
public class Signatures {

    private int value = 7;

    public int value() {
        return value;
    }

    public static long use(SignatureOnly s) {
        return s.get();
    }

    public static long useNew() {
        return use(new SignatureOnly());
    }
}
