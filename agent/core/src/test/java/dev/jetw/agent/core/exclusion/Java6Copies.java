package dev.jetw.agent.core.exclusion;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.SimpleRemapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Copies of test classes as Java 6 class files, which cannot hold invokedynamic: the agent gives them the
 * byte-checked entry (CallAdvice.ByteChecked) and removes an excluded method's advice by retransformation.
 * The copy has a new name and its own loader, whose parent resolves every other class it names.
 */
final class Java6Copies {

    private Java6Copies() {
    }

    static Class<?> define(Class<?> original, String newName) {
        String from = original.getName().replace('.', '/');
        byte[] bytes;
        try (InputStream in = original.getResourceAsStream("/" + from + ".class")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
            bytes = out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ClassWriter writer = new ClassWriter(0);
        ClassVisitor java6 = new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Opcodes.V1_6, access, name, signature, superName, interfaces);
            }

            @Override
            public void visitNestHost(String nestHost) {
                // Java 11 attribute: not in a Java 6 class file
            }
        };
        new ClassReader(bytes).accept(new ClassRemapper(java6, new SimpleRemapper(from, newName.replace('.', '/'))), 0);
        byte[] copy = writer.toByteArray();
        return new ClassLoader(original.getClassLoader()) {
            Class<?> define() {
                return defineClass(newName, copy, 0, copy.length);
            }
        }.define();
    }
}
