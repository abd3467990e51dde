package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
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
    private static final int C1_MAX_INLINE_SIZE = CalledFromCompiled.SMALL;

    @Test
    void exitFitsWithinC1sInliningLimit() throws IOException {
        int length = codeLength(Dispatcher.class, "exit", "(IJLjava/lang/Throwable;)V");
        assertTrue(length > 0 && length <= C1_MAX_INLINE_SIZE,
                "Dispatcher.exit is " + length + " bytes of bytecode; C1 inlines at most " + C1_MAX_INLINE_SIZE);
    }

    /** The {@code code_length} of a method's Code attribute, read from the class file (JVMS 4.7.3); -1 if absent. */
    private static int codeLength(Class<?> type, String name, String descriptor) throws IOException {
        byte[] file;
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            file = readAll(in);
        }
        Integer length = CalledFromCompiled.codeLengths(file).get(name + descriptor);
        return length == null ? -1 : length;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }
}
