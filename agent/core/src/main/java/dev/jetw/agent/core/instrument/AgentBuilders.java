package dev.jetw.agent.core.instrument;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.utility.JavaModule;

import java.lang.reflect.Constructor;
import java.security.ProtectionDomain;
import java.util.Collections;

import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isExtensionClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Byte Buddy's {@code AgentBuilder.Default} with Byte Buddy's defaults, but born with the no-op initialization strategy.
 * The public constructor first creates a self-injecting strategy (which jetw replaces at once with
 * {@code InitializationStrategy.NoOp}), and that strategy's Nexus accessor, as it is made, defines Byte Buddy's
 * {@code Nexus} class in the application's system class loader through Byte Buddy's reflective injector, which uses
 * {@code sun.misc.Unsafe}: a class of ours in the application's loader, and on Java 24 and later (JEP 498) four
 * lines of "terminally deprecated method in sun.misc.Unsafe" in the application's error output at every attach.
 * jetw injects no classes (its bootstrap classes come from the agent jar), so none of it is needed.
 *
 * <p>The constructor that takes every strategy is protected and names a type Byte Buddy keeps protected, so it is
 * called reflectively (the agent's loader is an unnamed module: no module rule stands in the way). Should a Byte Buddy
 * upgrade change it, the public constructor is used, as before; {@code AgentBuildersTest} fails then.
 */
public final class AgentBuilders {

    /** Shared by jetw's builders, as Byte Buddy shares its own default lock between the builders it makes. */
    private static final AgentBuilder.CircularityLock LOCK = new AgentBuilder.CircularityLock.Default();
    /** The protected constructor taking every strategy, or null when this Byte Buddy has another one. */
    private static final Constructor<?> ALL_STRATEGIES = allStrategies();

    private AgentBuilders() {
    }

    /** A builder of {@code byteBuddy} with Byte Buddy's defaults but no self-injection (see the class comment). */
    public static AgentBuilder of(ByteBuddy byteBuddy) {
        if (ALL_STRATEGIES != null) {
            try {
                return (AgentBuilder) ALL_STRATEGIES.newInstance(byteBuddy,
                        AgentBuilder.Listener.NoOp.INSTANCE,
                        LOCK,
                        AgentBuilder.PoolStrategy.Default.FAST,
                        AgentBuilder.TypeStrategy.Default.REBASE,
                        AgentBuilder.LocationStrategy.ForClassLoader.STRONG,
                        ClassFileLocator.NoOp.INSTANCE,
                        instance(AgentBuilder.Default.class.getName() + "$NativeMethodStrategy$Disabled"),
                        instance(AgentBuilder.Default.class.getName() + "$WarmupStrategy$NoOp"),
                        AgentBuilder.TransformerDecorator.NoOp.INSTANCE,
                        AgentBuilder.InitializationStrategy.NoOp.INSTANCE, // the one difference
                        AgentBuilder.RedefinitionStrategy.DISABLED,
                        AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.SinglePass.INSTANCE,
                        AgentBuilder.RedefinitionStrategy.BatchAllocator.ForTotal.INSTANCE,
                        AgentBuilder.RedefinitionStrategy.Listener.NoOp.INSTANCE,
                        instance(AgentBuilder.RedefinitionStrategy.class.getName() + "$ResubmissionStrategy$Disabled"),
                        AgentBuilder.InjectionStrategy.UsingReflection.INSTANCE,
                        AgentBuilder.LambdaInstrumentationStrategy.DISABLED,
                        AgentBuilder.DescriptionStrategy.Default.HYBRID,
                        AgentBuilder.FallbackStrategy.ByThrowableType.ofOptionalTypes(),
                        AgentBuilder.ClassFileBufferStrategy.Default.RETAINING,
                        AgentBuilder.InstallationListener.NoOp.INSTANCE,
                        DEFAULT_IGNORE,
                        Collections.emptyList());
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Byte Buddy's own constructor below: it works, with the side effects the class comment names.
            }
        }
        return new AgentBuilder.Default(byteBuddy);
    }

    /** True when {@link #of} makes builders without self-injection (this Byte Buddy has the constructor it calls). */
    static boolean withoutSelfInjection() {
        return ALL_STRATEGIES != null;
    }

    private static Constructor<?> allStrategies() {
        for (Constructor<?> c : AgentBuilder.Default.class.getDeclaredConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length == 24 && p[10] == AgentBuilder.InitializationStrategy.class && p[15].getSimpleName().equals("ResubmissionStrategy")) {
                try {
                    c.setAccessible(true);
                    return c;
                } catch (RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The INSTANCE of one of Byte Buddy's strategies whose type it keeps protected. */
    private static Object instance(String binaryName) throws ReflectiveOperationException {
        java.lang.reflect.Field f = Class.forName(binaryName, true, AgentBuilder.class.getClassLoader()).getField("INSTANCE");
        f.setAccessible(true);
        return f.get(null);
    }

    /** Byte Buddy's default ignore (every jetw builder sets its own with ignore(...), which replaces it). */
    private static final AgentBuilder.RawMatcher DEFAULT_IGNORE = new AgentBuilder.RawMatcher() {
        private final AgentBuilder.RawMatcher bootOrExtension = new AgentBuilder.RawMatcher.ForElementMatchers(
                net.bytebuddy.matcher.ElementMatchers.<TypeDescription>any(), isBootstrapClassLoader().or(isExtensionClassLoader()));
        private final AgentBuilder.RawMatcher byteBuddyOrReflection = new AgentBuilder.RawMatcher.ForElementMatchers(
                nameStartsWith("net.bytebuddy.").and(not(nameStartsWith("net.bytebuddy.renamed.")))
                        .or(nameStartsWith("sun.reflect.").or(nameStartsWith("jdk.internal.reflect.")))
                        .<TypeDescription>or(isSynthetic()));

        @Override
        public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module, Class<?> classBeingRedefined,
                               ProtectionDomain protectionDomain) {
            return bootOrExtension.matches(type, loader, module, classBeingRedefined, protectionDomain)
                    || byteBuddyOrReflection.matches(type, loader, module, classBeingRedefined, protectionDomain);
        }
    };
}
