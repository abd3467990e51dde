package dev.jetw.agent.core;

import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.List;

/**
 * The attach reply's note for a JVM that will throw all its compiled code away at the first class the attach
 * retransforms: HotSpot before JDK 18 records what compiled code depends on (the "evol" dependencies a
 * redefinition needs) only when an agent acquired capabilities in the OnLoad phase, that is, was loaded at
 * start-up; otherwise its first redefinition marks every compiled method for deoptimisation (JDK-8264941 removed
 * this in JDK 18). The application then runs interpreted while the JIT compiles it again: 10-24 baseline-seconds of
 * its work on the H2 service even for a one-class attach (BENCHMARKS.md §24, §26; docs/attach-ramp.md).
 *
 * <p>Silent when that cannot happen: JDK 18 and later, a JVM other than HotSpot, a JVM started with
 * {@code -javaagent:jetw-agent.jar=standby} (the marker {@link #STANDBY_PROPERTY}) or with any other
 * {@code -javaagent} (every Java agent acquires capabilities while it loads), or a JVM in which a jetw session ran
 * before (its first retransformation, if any, has already been paid).
 */
final class FirstRetransformNote {

    /** Set to "true" by a standby premain (dev.jetw.agent.AgentEntry in agent/dist, which the core cannot name). */
    static final String STANDBY_PROPERTY = "jetw.agent.standby";

    private FirstRetransformNote() {
    }

    /** The note for this JVM, or null; {@code sessionBefore}: a jetw session ran in this JVM before this attach. */
    static String forThisJvm(boolean sessionBefore) {
        int feature = featureVersion(System.getProperty("java.specification.version", ""));
        if (feature > 17 || sessionBefore || "true".equals(System.getProperty(STANDBY_PROPERTY))) {
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
        for (String argument : inputArguments) {
            if (argument.startsWith("-javaagent:")) {
                return null;
            }
        }
        return "this JVM (Java " + feature + ") throws all its compiled code away at the first class an attach retransforms,"
                + " and runs slower for seconds while the JIT compiles it again (HotSpot before JDK 18); start it with"
                + " -javaagent:jetw-agent.jar=standby to avoid that (docs/attach-ramp.md)";
    }

    /** "1.8" is 8, "17" is 17; 0 when unreadable. */
    static int featureVersion(String specificationVersion) {
        String v = specificationVersion.startsWith("1.") ? specificationVersion.substring(2) : specificationVersion;
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
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
