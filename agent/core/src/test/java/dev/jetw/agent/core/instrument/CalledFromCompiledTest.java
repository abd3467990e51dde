package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The classes the hot code may have inlined (docs/attach-ramp.md): those whose small method (at most MaxInlineSize's 35
 * bytes of bytecode) the hot classes' bytecode calls; a class whose called methods are all larger, or that is not
 * called, is not among them.
 */
class CalledFromCompiledTest {

    static final class Caller {
        static int run(int x) {
            return Small.twice(x) + Large.mix(x);
        }
    }

    static final class Small {
        static int twice(int x) {
            return 2 * x;
        }

        static int unusedLarge(int x) {
            int s = x;
            for (int i = 0; i < 10; i++) {
                s = s * 31 + i ^ (s >>> 3) + (s << 2) - i * 7 + (s % 13) + (s / 5) + (i & s) + (i | s);
            }
            return s;
        }
    }

    static final class Large {
        static int mix(int x) {
            int s = x;
            for (int i = 0; i < 10; i++) {
                s = s * 31 + i ^ (s >>> 3) + (s << 2) - i * 7 + (s % 13) + (s / 5) + (i & s) + (i | s);
            }
            return s;
        }

        static int tiny() {
            return 1;
        }
    }

    static final class NotCalled {
        static int tiny() {
            return 1;
        }
    }

    @Test
    void aClassWithASmallMethodTheHotCodeCallsIsCalledFromItAndOthersAreNot() {
        Map<String, Set<String>> invoked = CalledFromCompiled.invokedBy(Collections.<Class<?>>singletonList(Caller.class));
        assertEquals(Collections.singleton("twice(I)I"), invoked.get(Small.class.getName()));

        assertTrue(CalledFromCompiled.calledFrom(Small.class, invoked), "twice: a few bytes, called by Caller");
        assertFalse(CalledFromCompiled.calledFrom(Large.class, invoked), "mix is called but larger than 35 bytes; tiny is small but not called");
        assertFalse(CalledFromCompiled.calledFrom(NotCalled.class, invoked), "not called");
    }

    @Test
    void aClassWithoutAClassFileAddsNothingAndIsNotCalled() {
        assertTrue(CalledFromCompiled.invokedBy(Collections.<Class<?>>singletonList(int[].class)).isEmpty(), "no class file to read");
        assertFalse(CalledFromCompiled.calledFrom(int[].class, Collections.singletonMap(int[].class.getName(),
                Collections.singleton("clone()Ljava/lang/Object;"))), "named by the hot code, but no class file to tell its size");
    }
}
