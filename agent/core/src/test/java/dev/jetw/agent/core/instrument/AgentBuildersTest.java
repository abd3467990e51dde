package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import org.junit.jupiter.api.Test;

/**
 * jetw's Byte Buddy builders are born without the self-injecting initialization strategy (whose making defines Byte
 * Buddy's Nexus in the application's loader through sun.misc.Unsafe). Fails when a Byte Buddy upgrade changes the
 * constructor {@link AgentBuilders} calls, so that the fallback to the public constructor never goes unnoticed.
 * AttachRampIT checks the effect in a real JVM (the class-load log names no Nexus accessor).
 */
class AgentBuildersTest {

    @Test
    void theBuilderIsBornWithTheNoOpInitializationStrategy() throws Exception {
        assertTrue(AgentBuilders.withoutSelfInjection(), "this Byte Buddy has the constructor AgentBuilders calls");
        AgentBuilder builder = AgentBuilders.of(new ByteBuddy());
        Field f = AgentBuilder.Default.class.getDeclaredField("initializationStrategy");
        f.setAccessible(true);
        assertSame(AgentBuilder.InitializationStrategy.NoOp.INSTANCE, f.get(builder));
    }
}
