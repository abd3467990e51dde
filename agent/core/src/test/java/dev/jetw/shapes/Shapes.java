package dev.jetw.shapes;

import dev.jetw.api.Traced;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Classes of awkward shapes for the two weaving paths' selection (DirectWeavingTest): every kind of member the rules
 * take or leave (constructors, initialisers, bridges, lambdas, abstract, native, synchronized, static, trivial), the
 * kinds of class never instrumented (interfaces, annotations), and annotations selecting at both levels, with and
 * without a value, of runtime and class retention.
 */
public final class Shapes {

    private Shapes() {
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.METHOD, ElementType.TYPE})
    public @interface Timed {
    }

    @Retention(RetentionPolicy.CLASS)
    @Target({ElementType.METHOD, ElementType.TYPE})
    public @interface Marked {
    }

    public static class Plain {
        static int counter;
        private int value;
        private long wide;

        static {
            counter = 1;
        }

        public Plain() {
            value = 2;
        }

        public int getValue() {
            return value;
        }

        public void setWide(long wide) {
            this.wide = wide;
        }

        public synchronized long sum(int[] values, double scale, long start) {
            long s = start;
            for (int v : values) {
                s += (long) (v * scale);
            }
            return s + wide;
        }

        static String describe(Object o) {
            return String.valueOf(o);
        }

        private void skipped() {
            counter++;
        }

        public Supplier<String> supplier() {
            return () -> describe(this);
        }

        public native void nativeOne();

        final String varargs(String... parts) {
            return String.join(",", parts);
        }
    }

    public abstract static class Base<T> {
        public abstract T make();

        public T twice() {
            make();
            return make();
        }
    }

    /** {@code make()} has a bridge {@code Object make()}. */
    public static class Concrete extends Base<String> implements Callable<String> {
        @Override
        public String make() {
            return "x";
        }

        @Override
        public String call() {
            return make();
        }
    }

    public interface WithDefault {
        default int answer() {
            return 42;
        }

        static int staticAnswer() {
            return 43;
        }
    }

    public static class Annotated {
        @Traced(level = 3)
        public void levelThree() {
            Plain.describe(this);
        }

        @Traced
        public void noLevel() {
            Plain.describe(this);
        }

        @Traced(level = 0)
        public void levelZero() {
            Plain.describe(this);
        }

        @Timed
        public void timed() {
            Plain.describe(this);
        }

        @Marked
        public void marked() {
            Plain.describe(this);
        }

        @Deprecated
        @Timed
        @Traced(level = 4)
        public void several() {
            Plain.describe(this);
        }

        public void none() {
            Plain.describe(this);
        }
    }

    @Traced(level = 2)
    public static class TracedClass {
        public void one() {
            Plain.describe(this);
        }

        @Timed
        public void timedToo() {
            Plain.describe(this);
        }

        public int trivial() {
            return 1;
        }
    }

    @Timed
    public static class TimedClass {
        public void one() {
            Plain.describe(this);
        }
    }

    @Marked
    public static class MarkedClass {
        public void one() {
            Plain.describe(this);
        }
    }
}
