package testapp;

import java.util.function.IntSupplier;

/** Method kinds the agent must leave alone: abstract, native, lambda bodies, bridges. */
public abstract class Kinds implements Comparable<Kinds> {

    public abstract int abstractOne();

    public native int nativeOne();

    public int withLambda() {
        IntSupplier s = () -> 41;
        return s.getAsInt() + 1;
    }

    /** javac adds a synthetic bridge compareTo(Object) next to this. */
    @Override
    public int compareTo(Kinds o) {
        return 0;
    }

    public static final class Impl extends Kinds {
        @Override
        public int abstractOne() {
            return 1;
        }
    }
}
