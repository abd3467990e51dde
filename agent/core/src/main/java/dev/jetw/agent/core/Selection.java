package dev.jetw.agent.core;

import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;

import java.util.List;

/**
 * Which classes and methods get instrumented, and at which level. Order of precedence for a
 * method: never-instrumented classes and kinds, then exclude, then an annotation on the method,
 * then an annotation on its class, then the first include rule that matches.
 */
final class Selection {

    static final String TRACED = "dev.jetw.api.Traced";
    static final String API_CLASS = "dev.jetw.api.Jetw";

    /** The agent itself and the libraries it carries: never instrumented, whatever the options say. */
    private static final String[] AGENT_PACKAGES = {
        "dev.jetw.agent.", "dev.jetw.bootstrap.", "dev.jetw.etw.", "dev.jetw.etl.", "dev.jetw.api.",
        "net.bytebuddy.", "com.sun.jna.",
    };
    /** JDK packages: instrumented only with bootstrap=true and an include that names the package literally. */
    private static final String[] JDK_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.ietf.jgss.", "org.w3c.dom.", "org.xml.sax."};
    /**
     * What the agent's own event path runs before its re-entrancy check (ThreadLocal lookup,
     * Thread, references) or what the JVM needs to load and link classes: never instrumented,
     * even with bootstrap=true, because tracing them would recurse into the agent.
     */
    private static final String[] NEVER_EVEN_WITH_BOOTSTRAP = {
        "java.lang.Object", "java.lang.Thread", "java.lang.ThreadLocal", "java.lang.ref.", "java.lang.invoke.",
        "java.lang.Class", "java.lang.ClassLoader", "java.lang.reflect.", "java.lang.instrument.", "java.lang.Math",
        "java.lang.String", "java.lang.Throwable", "java.nio.", "java.util.concurrent.", "java.lang.Integer", "java.lang.Long",
    };

    private final List<Rule> rules;
    private final List<MethodPattern> excludes;
    private final int defaultLevel;
    private final long defaultThresholdNanos;
    private final boolean bootstrap;

    Selection(AgentOptions options) {
        this.rules = options.rules;
        this.excludes = options.excludes;
        this.defaultLevel = options.level;
        this.defaultThresholdNanos = options.thresholdNanos;
        this.bootstrap = options.bootstrap;
    }

    /** Class-level gate: could any method of this class be selected? Cheap checks first. */
    boolean matchesType(TypeDescription type, ClassLoader loader) {
        // Name checks first: the description is read lazily from the class file, and most loaded
        // classes (the JDK's) are rejected by name without being parsed.
        String name = type.getName();
        if (isNeverInstrumented(name)) {
            return false;
        }
        String jdk = jdkPrefix(name);
        if ((jdk != null || loader == null) && !bootstrap) {
            return false;
        }
        for (MethodPattern ex : excludes) {
            if (ex.coversWholeClass() && ex.matchesClass(name)) {
                return false;
            }
        }
        if (type.isInterface() || type.isAnnotation() || type.isSynthetic()) {
            return false;
        }
        for (Rule r : rules) {
            if (r.pattern != null && r.pattern.matchesClass(name) && (jdk == null || r.pattern.namesExplicitly(jdk))) {
                return true;
            }
        }
        if (jdk != null) {
            return false; // annotations do not pull in JDK classes
        }
        // Loaded classes are described by reflection (Byte Buddy's default, much faster at attach than
        // parsing every class file); a class whose method signatures name a missing class cannot be
        // scanned, nor instrumented: it is skipped, not counted as an error.
        try {
            if (annotationLevel(type.getDeclaredAnnotations()) >= 0) {
                return true;
            }
            for (MethodDescription m : type.getDeclaredMethods()) {
                if (annotationLevel(m.getDeclaredAnnotations()) >= 0) {
                    return true;
                }
            }
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
        return false;
    }

    /**
     * The rule that selects {@code method} (level and threshold resolved; for an annotation the
     * annotation's level and the global threshold), or null when it is not instrumented.
     */
    Rule select(TypeDescription type, MethodDescription method) {
        if (!method.isMethod() || method.isAbstract() || method.isNative() || method.isSynthetic() || method.isBridge()
                || method.getName().startsWith("lambda$")) {
            return null;
        }
        String cls = type.getName();
        String name = method.getName();
        for (MethodPattern ex : excludes) {
            if (ex.matches(cls, name)) {
                return null;
            }
        }
        String jdk = jdkPrefix(cls);
        if (jdk == null) {
            Rule r = annotationRule(method.getDeclaredAnnotations());
            if (r == null) {
                r = annotationRule(type.getDeclaredAnnotations());
            }
            if (r != null) {
                return r;
            }
        }
        for (Rule r : rules) {
            if (r.pattern != null && r.pattern.matches(cls, name) && (jdk == null || r.pattern.namesExplicitly(jdk))) {
                return r;
            }
        }
        return null;
    }

    /** Level from @Traced or a configured annotation among {@code annotations}; -1 if none of them selects. */
    private int annotationLevel(AnnotationList annotations) {
        Rule r = annotationRule(annotations);
        return r == null ? -1 : r.level;
    }

    /** The rule of @Traced (its level, the global threshold) or of a configured annotation; null if none selects. */
    private Rule annotationRule(AnnotationList annotations) {
        for (AnnotationDescription a : annotations) {
            String name = a.getAnnotationType().getName();
            if (name.equals(TRACED)) {
                Object v = a.getValue("level").resolve();
                int lvl = v instanceof Integer ? (Integer) v : 0;
                return Rule.annotation(TRACED, lvl > 0 && lvl <= 255 ? lvl : defaultLevel, defaultThresholdNanos);
            }
            for (Rule r : rules) {
                if (name.equals(r.annotation)) {
                    return r;
                }
            }
        }
        return null;
    }

    static boolean isNeverInstrumented(String className) {
        for (String p : AGENT_PACKAGES) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        for (String p : NEVER_EVEN_WITH_BOOTSTRAP) {
            if (className.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    static String jdkPrefix(String className) {
        for (String p : JDK_PACKAGES) {
            if (className.startsWith(p)) {
                return p;
            }
        }
        return null;
    }
}
