package dev.jetw.agent.core.instrument;


/**
 * Keeps attach/detach cycles from blowing up classes whose constant pool holds a NaN float or double.
 * HotSpot merges the old and new constant pools at every redefinition, matching entries by value; a
 * NaN never equals itself, so its entries are appended again each time, and since the next
 * retransformation starts from the merged pool the copies multiply (measured on JDK 25 with H2's
 * ValueDouble, ValueReal, ValueDecfloat: +1, +1, +3, +3, +9, +9, +27... entries per redefinition, a
 * "Merged constant pool overflow" and redefinitions of tens of seconds inside a safepoint by cycle 10).
 *
 * <p>Such a class, already loaded at attach, is retransformed in at most {@link #MAX_ATTACHES} attaches
 * per JVM (a few dozen extra entries), then left alone: later attaches do not trace it. Classes
 * instrumented as they load are not redefined and are not affected.
 */
final class NanConstantGuard {

    static final int MAX_ATTACHES = 3;

    /** Attaches so far (one per {@link Instrumenter}: a start-up or an attach); a class counts once per attach. */
    private static volatile int attach;

    /** Per class: {attaches it was retransformed in, the last attach counted}. Weak: dies with the class. */
    private static final ClassValue<int[]> SEEN = new ClassValue<int[]>() {
        @Override
        protected int[] computeValue(Class<?> type) {
            return new int[] {0, -1};
        }
    };

    /** Cached per class: whether its class file holds a NaN constant. */
    private static final ClassValue<Boolean> HOLDS_NAN = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return holdsNaN(type);
        }
    };

    private NanConstantGuard() {
    }

    static void nextAttach() {
        attach++;
    }

    /** The attaches counted so far (tests). */
    static int attaches() {
        return attach;
    }

    /** True when {@code type} (being retransformed) must be left alone; counts this attach otherwise. */
    static boolean refuses(Class<?> type) {
        if (!HOLDS_NAN.get(type)) {
            return false;
        }
        int[] seen = SEEN.get(type);
        synchronized (seen) {
            if (seen[1] != attach) {
                if (seen[0] >= MAX_ATTACHES) {
                    return true;
                }
                seen[0]++;
                seen[1] = attach;
            }
            return false;
        }
    }

    private static boolean holdsNaN(Class<?> type) {
        byte[] classFile = LoadedClassFiles.read(type);
        return classFile != null && holdsNaN(classFile); // unreadable: Byte Buddy will not find it either
    }

    /** Whether the class file's constant pool holds a NaN CONSTANT_Float or CONSTANT_Double (an unreadable rest: no). */
    static boolean holdsNaN(byte[] classFile) {
        return ConstantPool.walk(classFile, (tag, file, at, length) ->
                tag == ConstantPool.FLOAT && Float.isNaN(Float.intBitsToFloat(ConstantPool.u4(file, at)))
                        || tag == ConstantPool.DOUBLE && Double.isNaN(Double.longBitsToDouble(
                                (long) ConstantPool.u4(file, at) << 32 | ConstantPool.u4(file, at + 4) & 0xFFFFFFFFL)))
                == ConstantPool.End.FOUND;
    }
}
