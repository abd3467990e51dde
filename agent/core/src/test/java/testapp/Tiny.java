package testapp;

/** Trivial methods (getter, setter, constant) beside tiny methods that are not trivial, for trivial=skip. */
public class Tiny {

    private int value = 7;
    private static int count;

    public int value() {
        return value;
    }

    public void set(int v) {
        value = v;
    }

    public static int seven() {
        count += 0;
        return 7;
    }

    /** A test: forward branches only, so still trivial. */
    public boolean positive() {
        return value > 0;
    }

    /** A switch, forward only: trivial too. */
    public int sign(int n) {
        switch (n) {
            case 0:
                return 0;
            case 1:
                return 1;
            default:
                return -1;
        }
    }

    /** Calls another method: it could be slow. */
    public int withCall() {
        return Math.abs(value);
    }

    /** Loops: it could be slow. */
    public int withLoop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += value;
        }
        return s;
    }

    /** Takes a lock: it could wait. */
    public synchronized int locked() {
        return value;
    }
}
