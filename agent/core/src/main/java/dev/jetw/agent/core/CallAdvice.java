package dev.jetw.agent.core;

import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into every traced method. Only static calls into the boot-class-path Dispatcher, with
 * the method id as a constant: nothing to look up, no class of the agent's loader referenced, and
 * suppress = Throwable so that nothing the advice does can reach the application.
 */
final class CallAdvice {

    private CallAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter(@MethodId int methodId) {
        if (methodId < Dispatcher.MUTABLE_IDS && Dispatcher.MUTED[methodId] != 0) {
            return 0L; // a constant index: the JIT compiles this as one byte read (see Dispatcher, "Muted methods")
        }
        return Dispatcher.enter(methodId);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(@MethodId int methodId, @Advice.Enter long token, @Advice.Thrown Throwable thrown) {
        if (token != 0L) { // here, not only in exit(): profiled per method, so a muted method's exit is a compare
            Dispatcher.exit(methodId, token, thrown);
        }
    }
}
