package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class NanConstantGuardTest {

    static final class WithDoubleNaN {
        static double value(double x) {
            return x > 1 ? Double.NaN : x; // javac puts the NaN into the constant pool
        }
    }

    static final class WithFloatNaN {
        static float value(float x) {
            return x > 1 ? Float.NaN : x;
        }
    }

    static final class Plain {
        static double value(double x) {
            return x > 1 ? 2.5 : x;
        }
    }

    @Test
    void findsNaNFloatAndDoubleConstantsOnly() throws IOException {
        assertTrue(holdsNaN(WithDoubleNaN.class));
        assertTrue(holdsNaN(WithFloatNaN.class));
        assertFalse(holdsNaN(Plain.class));
        assertFalse(holdsNaN(NanConstantGuard.class));
    }

    @Test
    void aNaNClassIsRetransformedInAtMostThreeAttachesCountedOncePerAttach() {
        for (int i = 0; i < NanConstantGuard.MAX_ATTACHES; i++) {
            NanConstantGuard.nextAttach();
            assertFalse(NanConstantGuard.refuses(WithDoubleNaN.class), "attach " + (i + 1));
            assertFalse(NanConstantGuard.refuses(WithDoubleNaN.class), "asked again in the same attach");
        }
        NanConstantGuard.nextAttach();
        assertTrue(NanConstantGuard.refuses(WithDoubleNaN.class));
        assertFalse(NanConstantGuard.refuses(Plain.class), "classes without NaN constants are never refused");
    }

    private static boolean holdsNaN(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class")) {
            return NanConstantGuard.holdsNaN(in.readAllBytes());
        }
    }
}
