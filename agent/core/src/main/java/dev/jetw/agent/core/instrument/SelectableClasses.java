package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Which classes the options could select, told from what the JVM hands a class-file transformer (the name, the
 * loader, the class file's bytes) without Byte Buddy: {@link FirstMatchTransformer}'s test, so that a JVM in which
 * nothing matches never loads Byte Buddy. It answers yes for every class {@link Selection#matchesType} could accept
 * (and for {@code dev.jetw.api.Jetw}, which gets the API advice); a yes for a class Byte Buddy then leaves alone (an
 * interface, an annotation unused on any method) only brings the instrumentation up earlier.
 */
final class SelectableClasses {

    private final Selection selection;
    /** The selecting annotations' descriptors as they stand in a constant pool (ASCII: modified UTF-8 is the same). */
    private final byte[][] annotationDescriptors;

    SelectableClasses(Selection selection) {
        this.selection = selection;
        List<String> descriptors = selection.annotationDescriptors();
        this.annotationDescriptors = new byte[descriptors.size()][];
        for (int i = 0; i < descriptors.size(); i++) {
            annotationDescriptors[i] = descriptors.get(i).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** A class being loaded: {@code internalName} as the JVM gives it ({@code org/h2/Driver}), its class file. */
    boolean mayBeSelected(String internalName, ClassLoader loader, byte[] classFile) {
        String name = internalName.replace('/', '.');
        if (name.equals(Selection.API_CLASS)) {
            return true;
        }
        if (selection.rejectsByName(name, loader)) {
            return false;
        }
        if (selection.includesByName(name)) {
            return true;
        }
        return selection.mayBeSelectedByAnnotation(name) && classFile != null && holdsAnyAnnotation(classFile);
    }

    /**
     * A class loaded before the agent: its class file is not at hand, so one that only an annotation could select
     * counts as selectable (at start-up these are the JDK's classes, which no annotation selects).
     */
    boolean mayBeSelected(Class<?> loaded) {
        String name = loaded.getName();
        if (name.equals(Selection.API_CLASS)) {
            return true;
        }
        if (loaded.isArray() || loaded.isPrimitive() || selection.rejectsByName(name, loaded.getClassLoader())) {
            return false;
        }
        return selection.includesByName(name) || selection.mayBeSelectedByAnnotation(name);
    }

    /**
     * A loaded class the attach ramp may retransform: what Byte Buddy's type matchers accepted ({@link
     * Selection#matchesType}), told without describing the class: the API class; else a class of an instrumentable kind
     * (no interface, annotation type or synthetic class) that an include names, or whose class file, read from its loader
     * when only an annotation could select it, holds a selecting annotation. A class file its loader does not serve
     * (a class defined from bytes made at run time) is told by the loaded class's annotations, as Byte Buddy's type
     * pool (POOL_FIRST) fell back to describing the loaded class by reflection: the JVM still hands the retransformation
     * the class's bytes to weave.
     */
    boolean mayBeRetransformed(Class<?> loaded) {
        String name = loaded.getName();
        if (name.equals(Selection.API_CLASS)) {
            return true;
        }
        if (loaded.isArray() || loaded.isPrimitive() || loaded.isSynthetic() || !Selection.isInstrumentableKind(loaded.getModifiers())
                || selection.rejectsByName(name, loaded.getClassLoader())) {
            return false;
        }
        if (selection.includesByName(name)) {
            return true;
        }
        if (!selection.mayBeSelectedByAnnotation(name)) {
            return false;
        }
        byte[] classFile = LoadedClassFiles.read(loaded);
        return classFile != null ? holdsAnyAnnotation(classFile) : carriesAnyAnnotation(loaded);
    }

    /**
     * Whether the loaded class or one of its declared methods or constructors carries a selecting annotation, seen by
     * reflection (runtime-retained ones: what a reflective description of the class sees too). A class whose members
     * cannot be resolved (a missing type in a signature) counts as not selectable, as Byte Buddy could not describe it.
     */
    private boolean carriesAnyAnnotation(Class<?> loaded) {
        try {
            if (anySelecting(loaded.getDeclaredAnnotations())) {
                return true;
            }
            for (java.lang.reflect.Method m : loaded.getDeclaredMethods()) {
                if (anySelecting(m.getDeclaredAnnotations())) {
                    return true;
                }
            }
            for (java.lang.reflect.Constructor<?> c : loaded.getDeclaredConstructors()) {
                if (anySelecting(c.getDeclaredAnnotations())) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private boolean anySelecting(java.lang.annotation.Annotation[] annotations) {
        for (java.lang.annotation.Annotation a : annotations) {
            byte[] descriptor = ('L' + a.annotationType().getName().replace('.', '/') + ';').getBytes(StandardCharsets.UTF_8);
            if (isDescriptor(descriptor, 0, descriptor.length)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether one of the annotation descriptors is a Utf8 entry of the class file's constant pool (where an annotation's
     * type is named). Compares only entries of a descriptor's length: a few hundred steps for a class, not one per
     * byte, paid by every class that loads. A class file it cannot walk counts as holding one (the instrumentation
     * then decides, as without this test).
     */
    boolean holdsAnyAnnotation(byte[] classFile) {
        return ConstantPool.walk(classFile, annotationEntry) != ConstantPool.End.ALL_VISITED;
    }

    /** A Utf8 entry that is one of the descriptors (a class, not a lambda: it is first used in premain, where a lambda costs ~1-5 ms). */
    private final ConstantPool.Visitor annotationEntry = new ConstantPool.Visitor() {
        @Override
        public boolean found(int tag, byte[] file, int at, int length) {
            return tag == ConstantPool.UTF8 && isDescriptor(file, at, length);
        }
    };

    private boolean isDescriptor(byte[] classFile, int from, int length) {
        for (byte[] descriptor : annotationDescriptors) {
            if (descriptor.length == length && regionEquals(classFile, from, descriptor)) {
                return true;
            }
        }
        return false;
    }

    private static boolean regionEquals(byte[] classFile, int from, byte[] descriptor) {
        for (int i = 0; i < descriptor.length; i++) {
            if (classFile[from + i] != descriptor[i]) {
                return false;
            }
        }
        return true;
    }
}
