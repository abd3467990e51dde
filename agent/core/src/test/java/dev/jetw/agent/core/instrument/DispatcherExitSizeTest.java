package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.jar.asm.ClassReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every woven return calls {@code Dispatcher.exit} (docs/weaving.md). C1 inlines a callee only when its bytecode is
 * at most {@code MaxInlineSize} bytes (35 by default), and C1-compiled code is most of a short job's life: an exit
 * over that size is a real call at every return, even for an untraced or muted call (token 0).
 */
class DispatcherExitSizeTest {

    /** HotSpot's default {@code -XX:MaxInlineSize}: the largest callee C1 inlines without profile data. */
    private static final int C1_MAX_INLINE_SIZE = 35;

    @Test
    void exitFitsWithinC1sInliningLimit() throws IOException {
        int length = codeLength(Dispatcher.class, "exit", "(IJLjava/lang/Throwable;)V");
        assertTrue(length > 0 && length <= C1_MAX_INLINE_SIZE,
                "Dispatcher.exit is " + length + " bytes of bytecode; C1 inlines at most " + C1_MAX_INLINE_SIZE);
    }

    /** The {@code code_length} of a method's Code attribute, read from the class file (JVMS 4.7.3); -1 if absent. */
    private static int codeLength(Class<?> type, String name, String descriptor) throws IOException {
        ClassReader r;
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            r = new ClassReader(in);
        }
        char[] buf = new char[r.getMaxStringLength()];
        int u = r.header + 6;
        u += 2 + 2 * r.readUnsignedShort(u);             // interfaces
        int fields = r.readUnsignedShort(u);
        u += 2;
        for (int f = 0; f < fields; f++) {
            u = skipAttributes(r, u + 6);
        }
        int methods = r.readUnsignedShort(u);
        u += 2;
        for (int m = 0; m < methods; m++) {
            boolean wanted = name.equals(r.readUTF8(u + 2, buf)) && descriptor.equals(r.readUTF8(u + 4, buf));
            int attributes = r.readUnsignedShort(u + 6);
            u += 8;
            for (int a = 0; a < attributes; a++) {
                if (wanted && "Code".equals(r.readUTF8(u, buf))) {
                    return r.readInt(u + 10);            // name, length, max_stack, max_locals, then code_length
                }
                u += 6 + r.readInt(u + 2);
            }
        }
        return -1;
    }

    private static int skipAttributes(ClassReader r, int u) {
        int attributes = r.readUnsignedShort(u);
        u += 2;
        for (int a = 0; a < attributes; a++) {
            u += 6 + r.readInt(u + 2);
        }
        return u;
    }
}
