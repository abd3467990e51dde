package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.shapes.Shapes;
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

    /**
     * One attach counts one, also when Byte Buddy comes up during it (for a class the direct path leaves): each install
     * counted one before, so a NaN class asked on both paths in one attach was counted in two.
     */
    @Test
    void anAttachWhereByteBuddyComesUpCountsOneAttach() throws IOException {
        DirectWeavingTransformerTest.StubInstrumentation jvm = new DirectWeavingTransformerTest.StubInstrumentation();
        byte[] older = DirectWeavingTest.classFile(Shapes.Plain.class);
        older[7] = 50; // a Java 6 class file: the direct path leaves it to Byte Buddy, which comes up for it
        jvm.classFiles.put(Shapes.Plain.class, older);
        int before = NanConstantGuard.attaches();

        SessionlessInstrumenter attach = new SessionlessInstrumenter(jvm, "include=" + Shapes.class.getPackage().getName() + ".**");
        Instrumenter instrumenter = attach.instrumenter;
        AttachRamp ramp = attach.ramp();
        try {
            instrumenter.install(ramp);
            assertEquals(2, jvm.transformers.size(), "Byte Buddy came up beside the direct path");
            assertEquals(before + 1, NanConstantGuard.attaches(), "one attach");
        } finally {
            instrumenter.reset();
        }
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
