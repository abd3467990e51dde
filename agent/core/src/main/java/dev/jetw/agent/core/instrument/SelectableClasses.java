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

    private boolean holdsAnyAnnotation(byte[] classFile) {
        for (byte[] descriptor : annotationDescriptors) {
            if (indexOf(classFile, descriptor) >= 0) {
                return true;
            }
        }
        return false;
    }

    static int indexOf(byte[] haystack, byte[] needle) {
        int last = haystack.length - needle.length;
        byte first = needle[0];
        for (int i = 0; i <= last; i++) {
            if (haystack[i] != first) {
                continue;
            }
            int j = 1;
            while (j < needle.length && haystack[i + j] == needle[j]) {
                j++;
            }
            if (j == needle.length) {
                return i;
            }
        }
        return -1;
    }
}
