package dev.jetw.agent.core;

import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.List;

/**
 * The attach reply's note for a JVM that will throw all its compiled code away at the first class the attach
 * retransforms: HotSpot before JDK 18 records what compiled code depends on (the "evol" dependencies a
 * redefinition needs) only when an agent added or gave up capabilities in the OnLoad phase, that is, while agents
 * load at start-up; otherwise its first redefinition marks every compiled method for deoptimisation (removed in JDK 18:
 * JDK-8264941). The application then runs interpreted while the JIT compiles it
 * again: 10-24 baseline-seconds of its work on the H2 service even for a one-class attach (BENCHMARKS.md §24, §26;
 * docs/attach-ramp.md).
 *
 * <p>Silent when that cannot happen: JDK 18 and later, a JVM other than HotSpot, a JVM started with
 * {@code -javaagent:jetw-agent.jar=standby} (the marker {@link #STANDBY_PROPERTY}), with a Java agent whose manifest
 * asks for a capability (a Java agent adds capabilities at start-up only for its {@code Can-*} attributes; one
 * without them adds none), with the debugger's agent (jdwp adds capabilities while it loads), or with a recording at
 * start-up (JFR's own first redefinition is paid then, when little is compiled), or a JVM in which a jetw session ran
 * before. Another native agent ({@code -agentpath}, {@code -agentlib}) may or may not add capabilities: the note
 * then says "may". (A JVM redefined before by other means, e.g. a debugger's hot swap or a dynamic agent, is not
 * told apart: the note then says more than happens.)
 */
final class FirstRetransformNote {

    /** Set (to the agent jar's path) by a standby premain (dev.jetw.agent.AgentEntry in agent/dist, which the core cannot name). */
    static final String STANDBY_PROPERTY = "jetw.agent.standby";

    private FirstRetransformNote() {
    }

    /** The note for this JVM, or null; {@code sessionBefore}: a jetw session ran in this JVM before this attach. */
    static String forThisJvm(boolean sessionBefore) {
        int feature = dev.jetw.etw.JavaFeature.current();
        if (feature > 17 || sessionBefore || System.getProperty(STANDBY_PROPERTY) != null) {
            return null; // decided without the management classes
        }
        return note(feature, System.getProperty("java.vm.name", ""), false, inputArguments(), false);
    }

    /**
     * The note, or null when the first retransformation keeps the compiled code that does not depend on the class.
     * {@code feature}: the Java feature version (0 when unknown: no note).
     */
    static String note(int feature, String vmName, boolean standby, List<String> inputArguments, boolean sessionBefore) {
        if (feature == 0 || feature > 17 || sessionBefore || standby || !isHotSpot(vmName)) {
            return null;
        }
        boolean may = false;
        for (String argument : inputArguments) {
            if (argument.startsWith("-javaagent:")) {
                Boolean asks = asksForCapabilities(argument.substring("-javaagent:".length()).split("=", 2)[0]);
                if (asks == null) {
                    may = true;
                } else if (asks) {
                    return null;
                }
            } else if (argument.startsWith("-agentlib:jdwp") || argument.startsWith("-Xrunjdwp") || argument.startsWith("-XX:StartFlightRecording")) {
                return null;
            } else if (argument.startsWith("-agentlib:") || argument.startsWith("-agentpath:") || argument.startsWith("-Xrun")) {
                may = true;
            }
        }
        return "this JVM (Java " + feature + ") " + (may ? "may throw" : "throws")
                + " all its compiled code away at the first class an attach retransforms,"
                + " and runs slower for seconds while the JIT compiles it again (HotSpot before JDK 18); start it with"
                + " -javaagent:jetw-agent.jar=standby to avoid that (docs/attach-ramp.md)";
    }

    /** The Can-* attributes of a Java agent's manifest for which its JPLIS agent adds a JVMTI capability while it loads. */
    private static final String[] CAPABILITY_ATTRIBUTES = {"Can-Redefine-Classes", "Can-Retransform-Classes",
        "Can-Set-Native-Method-Prefix"};

    /**
     * Whether the Java agent jar at {@code path} (relative: to the JVM's working directory, as the JVM read it) asks for
     * a capability in its manifest; null when it cannot be read. Only its manifest is read, nothing of it runs.
     */
    static Boolean asksForCapabilities(String path) {
        java.io.File jar = new java.io.File(path);
        if (!jar.isAbsolute()) {
            jar = new java.io.File(System.getProperty("user.dir", ""), path);
        }
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar, false)) {
            java.util.jar.Manifest m = file.getManifest();
            if (m == null) {
                return Boolean.FALSE;
            }
            for (String a : CAPABILITY_ATTRIBUTES) {
                if ("true".equalsIgnoreCase(String.valueOf(m.getMainAttributes().getValue(a)).trim())) {
                    return Boolean.TRUE;
                }
            }
            return Boolean.FALSE;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** HotSpot's own names ("OpenJDK 64-Bit Server VM", "Java HotSpot(TM) 64-Bit Server VM"); not OpenJ9's. */
    private static boolean isHotSpot(String vmName) {
        return (vmName.contains("HotSpot") || vmName.contains("OpenJDK")) && !vmName.contains("J9");
    }

    /** The JVM's start-up arguments, or none when the management classes are missing (a trimmed runtime). */
    private static List<String> inputArguments() {
        try {
            return ManagementFactory.getRuntimeMXBean().getInputArguments();
        } catch (Throwable t) {
            return Collections.emptyList();
        }
    }
}
