package dev.jetw.agent.core.instrument;

import java.lang.management.ManagementFactory;
import java.util.HashSet;
import java.util.Set;
import javax.management.ObjectName;

/**
 * The classes that hold a method the JIT has compiled (code in use) right now, read from the JVM's code cache through
 * the {@code Compiler.codelist} diagnostic command (what {@code jcmd PID Compiler.codelist} prints; JDK 9 and later).
 * Why: retransforming such a class throws its compiled code away, and the application runs that code interpreted
 * until the JIT compiles it again (docs/attach-ramp.md); the stack samples alone miss the compiled methods that were
 * not on a stack at the instant of a sample.
 */
final class CompiledClasses {

    private CompiledClasses() {
    }

    /** The class names, or an empty set when the JVM does not offer the command (then the stack samples decide alone). */
    static Set<String> read() {
        try {
            Object listing = ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "compilerCodelist", new Object[] {new String[0]}, new String[] {String[].class.getName()});
            return listing instanceof String ? parse((String) listing) : new HashSet<>();
        } catch (Exception | LinkageError e) {
            return new HashSet<>();
        }
    }

    /**
     * One line per compiled method: {@code ID LEVEL STATE CLASS.METHOD(DESCRIPTOR) [ADDRESSES]}. Level 0 is a native
     * method's wrapper (no code of the class to lose); state 0 is code in use (others are already not entrant).
     */
    static Set<String> parse(String listing) {
        Set<String> classes = new HashSet<>();
        for (String line : listing.split("\n")) {
            String[] f = line.trim().split(" ", 5);
            if (f.length < 4 || f[1].equals("0") || !f[2].equals("0")) {
                continue;
            }
            int paren = f[3].indexOf('(');
            int dot = f[3].lastIndexOf('.', paren < 0 ? f[3].length() : paren);
            if (dot > 0) {
                classes.add(f[3].substring(0, dot));
            }
        }
        return classes;
    }
}
