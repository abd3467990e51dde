package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.MethodEntries;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into every traced method. Only static calls into the boot-class-path Dispatcher, with
 * the method id as a constant: nothing to look up, no class of the agent's loader referenced, and
 * suppress = Throwable so that nothing the advice does can reach the application.
 *
 * <p>Only for class files older than Java 7, which cannot hold invokedynamic ({@link MethodEntries}): the entry
 * reads the method's muted byte first. The exit tests the token itself, so that the test is profiled per method.
 * Class files of Java 7 and later are woven by {@link LinkedCallWeaver} instead (docs/weaving.md).
 */
final class CallAdvice {

    private CallAdvice() {
    }

    static final class ByteChecked {

        private ByteChecked() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long enter(@MethodId int methodId) {
            if (methodId < MethodEntries.MUTABLE_IDS && MethodEntries.MUTED[methodId] != 0) {
                return 0L; // a constant index: the JIT compiles this as one byte read
            }
            return Dispatcher.enter(methodId);
        }

        @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
        static void exit(@MethodId int methodId, @Advice.Enter long token, @Advice.Thrown Throwable thrown) {
            if (token != 0L) {
                Dispatcher.exit(methodId, token, thrown);
            }
        }
    }
}
