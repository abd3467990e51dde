package dev.jetw.agent.core.methods;

import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.MethodPattern;
import dev.jetw.agent.core.options.Rule;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.jar.asm.Opcodes;

import java.util.List;

/**
 * Which classes and methods get instrumented, and at which level. Order of precedence for a
 * method: never-instrumented classes and kinds, then exclude, then an annotation on the method,
 * then an annotation on its class, then the most specific include rule that matches
 * ({@link Rule#MOST_SPECIFIC_FIRST}); the rule that selects a method also charges it to its share
 * of the budget ({@link MethodBudget}).
 */
public final class Selection {

    static final String TRACED = "dev.jetw.api.Traced";
    public static final String API_CLASS = "dev.jetw.api.Jetw";

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
    private final boolean skipTrivial;

    public Selection(AgentOptions options) {
        List<Rule> sorted = new java.util.ArrayList<>(options.rules);
        sorted.sort(Rule.MOST_SPECIFIC_FIRST);
        this.rules = java.util.Collections.unmodifiableList(sorted);
        this.excludes = options.excludes;
        this.defaultLevel = options.level;
        this.defaultThresholdNanos = options.thresholdNanos;
        this.bootstrap = options.bootstrap;
        this.skipTrivial = options.skipTrivial;
    }

    /**
     * True for a class no option can select, by its name and loader alone: the agent's, the JDK's without
     * bootstrap=true, a whole-class exclude. Most loaded classes are rejected here, without being described.
     */
    public boolean rejectsByName(String name, ClassLoader loader) {
        if (isNeverInstrumented(name)) {
            return true;
        }
        if ((jdkPrefix(name) != null || loader == null) && !bootstrap) {
            return true;
        }
        for (MethodPattern ex : excludes) {
            if (ex.coversWholeClass() && ex.matchesClass(name)) {
                return true;
            }
        }
        return false;
    }

    /** Class-level gate: could any method of this class be selected? Cheap checks first. */
    public boolean matchesType(TypeDescription type, ClassLoader loader) {
        // Name checks first: the description is read lazily from the class file.
        String name = type.getName();
        if (rejectsByName(name, loader)) {
            return false;
        }
        if (!isInstrumentableKind(type.getModifiers())) {
            return false;
        }
        if (includesByName(name)) {
            return true;
        }
        if (!mayBeSelectedByAnnotation(name)) {
            return false;
        }
        // Classes are described from their class files (ClassDescriptions); one whose annotations or
        // signatures cannot be resolved cannot be scanned, nor instrumented: it is skipped, not counted as an error.
        try {
            if (annotationChoice(declared(type.getDeclaredAnnotations())) >= 0) {
                return true;
            }
            for (MethodDescription m : type.getDeclaredMethods()) {
                if (annotationChoice(declared(m.getDeclaredAnnotations())) >= 0) {
                    return true;
                }
            }
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** False for an interface, an annotation type or a synthetic class (by its class file's access flags): none is instrumented. */
    public static boolean isInstrumentableKind(int classModifiers) {
        return (classModifiers & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ANNOTATION | Opcodes.ACC_SYNTHETIC)) == 0;
    }

    /** True when an include rule names the class (a JDK class only when the rule names its package literally). */
    public boolean includesByName(String name) {
        String jdk = jdkPrefix(name);
        for (Rule r : rules) {
            if (r.pattern != null && r.pattern.matchesClass(name) && (jdk == null || r.pattern.namesExplicitly(jdk))) {
                return true;
            }
        }
        return false;
    }

    /** False for a JDK class: annotations ({@code @Traced}, annotation rules) never pull one in. */
    public boolean mayBeSelectedByAnnotation(String name) {
        return jdkPrefix(name) == null;
    }

    /**
     * The class-file descriptors ({@code Lcom/acme/Timed;}) of the annotations that select methods: {@code @Traced}
     * and the annotation rules'. A class file that holds none of them in its constant pool carries none of them.
     */
    public List<String> annotationDescriptors() {
        List<String> descriptors = new java.util.ArrayList<>();
        descriptors.add(descriptorOf(TRACED));
        for (Rule r : rules) {
            if (r.annotation != null) {
                descriptors.add(descriptorOf(r.annotation));
            }
        }
        return descriptors;
    }

    private static String descriptorOf(String binaryName) {
        return "L" + binaryName.replace('.', '/') + ";";
    }

    /** The rules in the order they claim a method (most specific first): the budget's groups, then {@code @Traced}. */
    public List<Rule> rules() {
        return rules;
    }

    /** Packs a choice: the budget group (a rule's index in {@link #rules}, or its size for @Traced) and the level. */
    private static long choice(int group, int level) {
        return (long) group << 8 | level;
    }

    /** The duration threshold of a choice: its rule's (resolved), or the global one for {@code @Traced}. */
    public long thresholdNanos(long choice) {
        int group = groupOf(choice);
        return group < rules.size() ? rules.get(group).thresholdNanos : defaultThresholdNanos;
    }

    /**
     * True when a trivial method ({@link dev.jetw.agent.core.instrument.TrivialMethods}) of this choice is left uninstrumented: with
     * {@code trivial=skip} (the default) and only for an include rule that takes every method of the classes a
     * wildcard matches ({@code org.h2.**}). A rule naming one class ({@code com.acme.Foo}), one naming methods
     * ({@code class#method}) or an annotation asked for those methods: they are traced.
     */
    public boolean skipsTrivial(long choice) {
        int group = groupOf(choice);
        return skipTrivial && group < rules.size() && rules.get(group).pattern != null
                && rules.get(group).pattern.takesWholeClassesByWildcard();
    }

    public static int groupOf(long choice) {
        return (int) (choice >>> 8);
    }

    public static int levelOf(long choice) {
        return (int) choice & 0xFF;
    }

    /**
     * An annotation as a class file declares it: its type's binary name and, for {@code @Traced}, the level it sets (0
     * when it sets none: {@code Traced.level}'s default). What both weaving paths hand {@link #choose}: Byte Buddy's
     * descriptions and the class-file reader of the direct path, so that the rules read the same facts.
     */
    public static final class DeclaredAnnotation {
        public final String typeName;
        public final int tracedLevel;

        public DeclaredAnnotation(String typeName, int tracedLevel) {
            this.typeName = typeName;
            this.tracedLevel = tracedLevel;
        }

        /** True for {@code @Traced}, the one annotation whose value ({@code level}) the rules read. */
        public static boolean isTraced(String typeName) {
            return TRACED.equals(typeName);
        }
    }

    /**
     * {@link #choose(String, int, String, List, List)} for a method Byte Buddy describes.
     */
    public long choose(TypeDescription type, MethodDescription method) {
        if (!method.isMethod()) {
            return -1;
        }
        return choose(type.getName(), method.getModifiers(), method.getName(), new LazyAnnotations(method.getDeclaredAnnotations()),
                new LazyAnnotations(type.getDeclaredAnnotations()));
    }

    /**
     * Which rule selects a method and at which level ({@link #groupOf}, {@link #levelOf}), or -1 when it is not
     * instrumented: from the plain facts of a class file. {@code methodName} is never {@code <init>} or
     * {@code <clinit>} (constructors and initialisers are never instrumented: the caller leaves them out); the
     * annotation lists are read only when the excludes leave the method in and the class is not the JDK's.
     */
    public long choose(String cls, int methodModifiers, String name, List<DeclaredAnnotation> methodAnnotations,
                       List<DeclaredAnnotation> classAnnotations) {
        if ((methodModifiers & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE)) != 0
                || name.startsWith("lambda$") || name.startsWith("<")) {
            return -1;
        }
        for (MethodPattern ex : excludes) {
            if (ex.matches(cls, name)) {
                return -1;
            }
        }
        String jdk = jdkPrefix(cls);
        if (jdk == null) {
            long c = annotationChoice(methodAnnotations);
            if (c >= 0) {
                return c;
            }
            c = annotationChoice(classAnnotations);
            if (c >= 0) {
                return c;
            }
        }
        for (int i = 0; i < rules.size(); i++) {
            Rule r = rules.get(i);
            if (r.pattern != null && r.pattern.matches(cls, name) && (jdk == null || r.pattern.namesExplicitly(jdk))) {
                return choice(i, r.level);
            }
        }
        return -1;
    }

    /** The choice of @Traced or a configured annotation among {@code annotations}; -1 if none of them selects. */
    private long annotationChoice(List<DeclaredAnnotation> annotations) {
        for (DeclaredAnnotation a : annotations) {
            if (a.typeName.equals(TRACED)) {
                int lvl = a.tracedLevel;
                return choice(rules.size(), lvl > 0 && lvl <= 255 ? lvl : defaultLevel);
            }
            for (int i = 0; i < rules.size(); i++) {
                if (a.typeName.equals(rules.get(i).annotation)) {
                    return choice(i, rules.get(i).level);
                }
            }
        }
        return -1;
    }

    private static List<DeclaredAnnotation> declared(AnnotationList annotations) {
        return new LazyAnnotations(annotations);
    }

    /**
     * Byte Buddy's annotations as {@link DeclaredAnnotation}s, each read only when the rules ask for it (most methods
     * are decided by the excludes or the JDK test first); {@code @Traced}'s level is resolved as Byte Buddy resolves it.
     */
    private static final class LazyAnnotations extends java.util.AbstractList<DeclaredAnnotation> {
        private final AnnotationList annotations;

        LazyAnnotations(AnnotationList annotations) {
            this.annotations = annotations;
        }

        @Override
        public DeclaredAnnotation get(int index) {
            AnnotationDescription a = annotations.get(index);
            String name = a.getAnnotationType().getName();
            if (!DeclaredAnnotation.isTraced(name)) {
                return new DeclaredAnnotation(name, 0);
            }
            Object v = a.getValue("level").resolve();
            return new DeclaredAnnotation(name, v instanceof Integer ? (Integer) v : 0);
        }

        @Override
        public int size() {
            return annotations.size();
        }
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

    /**
     * The include patterns that select nothing because they name JDK packages only (their literal prefix is one) while
     * bootstrap=false leaves JDK classes alone: said at start, else {@code include=java.util.**} traces nothing without
     * a word (docs/agent-options.md, bootstrap=).
     */
    public static List<String> jdkIncludesWithoutBootstrap(AgentOptions options) {
        List<String> out = new java.util.ArrayList<>();
        for (Rule r : options.rules) {
            if (!options.bootstrap && r.pattern != null) {
                for (String p : JDK_PACKAGES) {
                    if (r.pattern.namesExplicitly(p)) {
                        out.add(r.pattern.toString());
                        break;
                    }
                }
            }
        }
        return out;
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
