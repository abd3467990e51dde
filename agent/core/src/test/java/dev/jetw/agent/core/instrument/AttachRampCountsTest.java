package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.AttachHot;
import dev.jetw.bootstrap.Dispatcher;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import org.junit.jupiter.api.Test;

/** The ramp's status counts: a retransformation call that failed is not among the classes done, and says so. */
class AttachRampCountsTest {

    @Test
    void aFailedRetransformationIsCountedAsFailedNotDone() {
        AttachRamp ramp = new AttachRamp(null, new Selection(AgentOptions.parse("include=java.lang.**")), AttachHot.DEFER);
        AgentBuilder.RedefinitionStrategy.Listener pacing = ramp.pacing();
        List<Class<?>> first = Arrays.<Class<?>>asList(String.class, Integer.class);
        List<Class<?>> second = Collections.<Class<?>>singletonList(Long.class);
        List<Class<?>> all = Arrays.<Class<?>>asList(String.class, Integer.class, Long.class);
        long errorsBefore = Dispatcher.internalErrors();

        pacing.onBatch(0, first, all);
        pacing.onError(0, first, new UnsupportedOperationException("class redefinition failed: attempted to change the schema"), all);
        pacing.onBatch(1, second, all);
        pacing.onComplete(2, all, Collections.<List<Class<?>>, Throwable>singletonMap(first, new UnsupportedOperationException()));

        String status = ramp.status();
        assertTrue(status.contains(", 1 of 3 classes retransformed so far, 2 failed (their calls are not traced"), status);
        assertTrue(Dispatcher.internalErrors() > errorsBefore, "the JVM's error is reported");
    }
}
