package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.asm.Advice;

/**
 * Advice for the application-facing API class dev.jetw.api.Jetw, whose bodies are no-ops: with
 * the agent attached they reach the Dispatcher. Without the agent the API stays a no-op.
 */
final class ApiAdvice {

    private ApiAdvice() {
    }

    /** {@code Jetw.checkpoint(String)}: level INFORMATION. */
    static final class Checkpoint {
        private Checkpoint() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) String label) {
            Dispatcher.checkpoint(label, 4);
        }
    }

    /** {@code Jetw.checkpoint(String, int)}. */
    static final class CheckpointAtLevel {
        private CheckpointAtLevel() {
        }

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) String label, @Advice.Argument(1) int level) {
            Dispatcher.checkpoint(label, level);
        }
    }

    /** {@code Jetw.isActive()}: true while a handler is installed. */
    static final class IsActive {
        private IsActive() {
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Return(readOnly = false) boolean active) {
            active = Dispatcher.isActive();
        }
    }
}
