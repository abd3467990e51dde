package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.methods.Selection.DeclaredAnnotation;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.utility.OpenedClassReader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Weaves one class file of Java 7 or later without Byte Buddy's {@code AgentBuilder} (docs/weaving.md, "The direct
 * path"): the class file is read once by ASM, each method is decided by {@link Selection#choose(String, int, String,
 * List, List)} on the facts the reader meets (the class's and the method's access flags, names and declared
 * annotations: the same rules Byte Buddy's path calls), admitted by {@link Admission} as Byte Buddy's selector admits
 * it, and woven by {@link LinkedCallVisitor} into a {@link ClassWriter} that copies everything else (the frames are
 * the weaver's own: nothing is computed, so no class is loaded or resolved from here). A method's annotations come
 * after ASM opened it, so when the class file may hold a selecting annotation the decision waits for the method's
 * code ({@link DeferredChoice}); otherwise it is taken at once and the methods left alone are copied as they are.
 */
final class DirectWeaving {

    /** The class file version of Java 7: older class files cannot hold the woven invokedynamic. */
    static final int JAVA_7 = 51;

    /** What happens to a method the rules chose: shared with Byte Buddy's selector ({@link Instrumenter}). */
    interface Admission {
        /**
         * The id to weave into {@code className.methodName descriptor}, chosen by {@code choice} (>= 0), or 0 when it
         * gets no advice (a trivial method, a full budget, a known decision); registers it as Byte Buddy's path does.
         */
        int idToWeave(String className, String methodName, String descriptor, long choice, TrivialScan trivial);
    }

    /** The trivial methods of the class being woven (name + descriptor), scanned only when a choice asks. */
    interface TrivialScan {
        Set<String> trivialMethods();
    }

    private DirectWeaving() {
    }

    /** The major version of a class file, or -1 when it is too short to hold one. */
    static int majorVersion(byte[] classFile) {
        return classFile.length < 8 ? -1 : (classFile[6] & 0xFF) << 8 | classFile[7] & 0xFF;
    }

    /**
     * The woven class file, or null when no method of it is woven (the class keeps its bytes).
     * {@code annotationsMatter}: the class file may hold a selecting annotation ({@link SelectableClasses}).
     *
     * @throws RuntimeException when the class file cannot be read or woven: the caller counts it, the class keeps its bytes
     */
    static byte[] weave(byte[] classFile, boolean annotationsMatter, Selection selection, Admission admission, MethodRegistry registry) {
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        Chooser chooser = new Chooser(writer, classFile, annotationsMatter, selection, admission, registry);
        // The frames as the class file has them: the woven ones are written from them almost verbatim, where expanded
        // frames would each go through ASM's recompression (BENCHMARKS.md §23).
        reader.accept(chooser, 0);
        return chooser.woven == 0 ? null : writer.toByteArray();
    }

    /** The class visitor: reads the class's facts, decides each method, weaves the chosen ones. */
    private static final class Chooser extends ClassVisitor implements TrivialScan {
        private final byte[] classFile;
        private final boolean annotationsMatter;
        private final Selection selection;
        private final Admission admission;
        private final MethodRegistry registry;
        private String internalName;
        private String className;
        private boolean instrumentable;
        private List<DeclaredAnnotation> classAnnotations = Collections.emptyList();
        private Set<String> trivial;
        private Map<String, Integer> maxLocals;
        int woven;

        Chooser(ClassVisitor writer, byte[] classFile, boolean annotationsMatter, Selection selection, Admission admission,
                MethodRegistry registry) {
            super(OpenedClassReader.ASM_API, writer);
            this.classFile = classFile;
            this.annotationsMatter = annotationsMatter;
            this.selection = selection;
            this.admission = admission;
            this.registry = registry;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            internalName = name;
            className = name.replace('/', '.');
            instrumentable = Selection.isInstrumentableKind(access);
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            AnnotationVisitor av = super.visitAnnotation(descriptor, visible);
            if (!annotationsMatter) {
                return av;
            }
            if (classAnnotations.isEmpty()) {
                classAnnotations = new ArrayList<>(2);
            }
            return Annotations.record(descriptor, av, classAnnotations);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (!instrumentable || name.charAt(0) == '<' || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return mv;
            }
            if (annotationsMatter) {
                return new DeferredChoice(mv, access, name, descriptor);
            }
            return decide(mv, access, name, descriptor, Collections.<DeclaredAnnotation>emptyList());
        }

        /** The method's visitor: the weaver when the rules and the admission give it an id, else the writer's. */
        MethodVisitor decide(MethodVisitor mv, int access, String name, String descriptor, List<DeclaredAnnotation> annotations) {
            long choice = selection.choose(className, access, name, annotations, classAnnotations);
            if (choice < 0) {
                return mv;
            }
            int id = admission.idToWeave(className, name, descriptor, choice, this);
            if (id == 0) {
                return mv;
            }
            if (maxLocals == null) {
                maxLocals = OriginalMaxLocals.of(classFile);
            }
            Integer slot = maxLocals.get(name + descriptor);
            MethodVisitor weaver = LinkedCallWeaver.weave(registry, mv, internalName, (access & Opcodes.ACC_STATIC) != 0, name,
                    descriptor, id, slot == null ? -1 : slot, false);
            if (weaver != mv) {
                woven++;
            }
            return weaver;
        }

        @Override
        public Set<String> trivialMethods() {
            if (trivial == null) {
                trivial = TrivialMethods.of(classFile);
            }
            return trivial;
        }

        /**
         * A method whose annotations may select it: they are visited before its code, so it is decided there; until
         * then everything goes to the writer as it is.
         */
        private final class DeferredChoice extends MethodVisitor {
            private final int access;
            private final String name;
            private final String descriptor;
            private List<DeclaredAnnotation> annotations = Collections.emptyList();

            DeferredChoice(MethodVisitor writer, int access, String name, String descriptor) {
                super(OpenedClassReader.ASM_API, writer);
                this.access = access;
                this.name = name;
                this.descriptor = descriptor;
            }

            @Override
            public AnnotationVisitor visitAnnotation(String annotationDescriptor, boolean visible) {
                AnnotationVisitor av = super.visitAnnotation(annotationDescriptor, visible);
                if (annotations.isEmpty()) {
                    annotations = new ArrayList<>(2);
                }
                return Annotations.record(annotationDescriptor, av, annotations);
            }

            @Override
            public void visitCode() {
                mv = decide(mv, access, name, descriptor, annotations);
                super.visitCode();
            }
        }
    }

    /** Declared annotations as the rules read them: the type's binary name, and {@code @Traced}'s level when set. */
    private static final class Annotations {
        private Annotations() {
        }

        /** Adds the annotation to {@code into} (@Traced once its values are read), passing everything on to {@code av}. */
        static AnnotationVisitor record(String descriptor, AnnotationVisitor av, final List<DeclaredAnnotation> into) {
            final String typeName = Type.getType(descriptor).getClassName();
            if (!DeclaredAnnotation.isTraced(typeName)) {
                into.add(new DeclaredAnnotation(typeName, 0));
                return av;
            }
            final int at = into.size();
            into.add(new DeclaredAnnotation(typeName, 0));
            return new AnnotationVisitor(OpenedClassReader.ASM_API, av) {
                @Override
                public void visit(String name, Object value) {
                    if ("level".equals(name) && value instanceof Integer) {
                        into.set(at, new DeclaredAnnotation(typeName, (Integer) value));
                    }
                    super.visit(name, value);
                }
            };
        }
    }
}
