package dev.jetw.agent.core.instrument;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link TrivialMethods} reads the bytecode itself; its answer is the one ASM's pass gave ({@link AsmTrivialMethods}),
 * class by class, over real class files and over shapes made for the byte scan's own cases (switch padding, wide
 * instructions, backward targets, static fields of another class, jsr).
 */
class TrivialMethodsScanTest {

    private static final String[] JARS = {"h2-2.3.232.jar", "jackson-databind-2.17.2.jar", "jackson-core-2.17.2.jar",
        "jackson-annotations-2.17.2.jar", "kotlin-stdlib-2.0.21.jar", "scala-library-2.13.15.jar", "groovy-4.0.24.jar"};

    /** Compares the two scans on one class file; returns how many trivial methods it has. */
    private static int compare(String name, byte[] classFile) {
        Set<String> expected = new TreeSet<>(AsmTrivialMethods.of(classFile));
        assertEquals(expected, new TreeSet<>(TrivialMethods.of(classFile)), name);
        return expected.size();
    }

    @Test
    void theLibrariesGiveTheSameTrivialMethodsAsAsmsPass() throws IOException {
        String folder = System.getProperty("jetw.libraryJars", "target/library-jars");
        int classes = 0;
        int trivial = 0;
        for (String jarName : JARS) {
            File f = new File(folder, jarName);
            assumeTrue(f.isFile(), f + " is missing (the agent/core build's library-jars execution copies it)");
            try (JarFile jar = new JarFile(f)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    if (entry.getName().endsWith(".class")) {
                        trivial += compare(jarName + "!" + entry.getName(), jar.getInputStream(entry).readAllBytes());
                        classes++;
                    }
                }
            }
        }
        assertTrue(classes > 10_000 && trivial > 10_000, classes + " classes, " + trivial + " trivial methods");
    }

    @Test
    void javaBaseGivesTheSameTrivialMethodsAsAsmsPass() throws IOException {
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(jrt.getPath("/modules/java.base"))) {
            s.filter(p -> p.toString().endsWith(".class")).forEach(files::add);
        }
        int trivial = 0;
        for (Path p : files) {
            trivial += compare(p.toString(), Files.readAllBytes(p));
        }
        assertTrue(files.size() > 1_000 && trivial > 1_000, files.size() + " classes, " + trivial + " trivial methods");
    }

    /** A method of {@code cw} whose body is {@code body}, returning an int. */
    private interface Body {
        void write(MethodVisitor mv);
    }

    private static void method(ClassWriter cw, String name, Body body) {
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, name, "(I)I", null, null);
        mv.visitCode();
        body.write(mv);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** {@code pad} nops, then a switch on the argument whose cases jump forward (or, {@code back}, one to the start). */
    private static Body tableSwitch(int pad, boolean back, boolean lookup) {
        return mv -> {
            Label start = new Label();
            Label one = new Label();
            Label other = new Label();
            mv.visitLabel(start);
            for (int i = 0; i < pad; i++) {
                mv.visitInsn(Opcodes.NOP);
            }
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            if (lookup) {
                mv.visitLookupSwitchInsn(other, new int[] {1, 1000}, new Label[] {one, back ? start : one});
            } else {
                mv.visitTableSwitchInsn(1, 2, other, one, back ? start : one);
            }
            mv.visitLabel(one);
            mv.visitInsn(Opcodes.ICONST_1);
            mv.visitInsn(Opcodes.IRETURN);
            mv.visitLabel(other);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
        };
    }

    @Test
    void madeShapesGiveTheSameTrivialMethodsAsAsmsPass() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "shapes/Made", null, "java/lang/Object", null);
        cw.visitField(Opcodes.ACC_STATIC, "own", "I", null, null).visitEnd();
        for (int pad = 0; pad < 4; pad++) {
            method(cw, "table" + pad, tableSwitch(pad, false, false));
            method(cw, "tableBack" + pad, tableSwitch(pad, true, false));
            method(cw, "lookup" + pad, tableSwitch(pad, false, true));
            method(cw, "lookupBack" + pad, tableSwitch(pad, true, true));
        }
        method(cw, "wideIinc", mv -> {
            mv.visitIincInsn(300, 1);
            mv.visitVarInsn(Opcodes.ILOAD, 300);
            mv.visitInsn(Opcodes.IRETURN);
        });
        method(cw, "ownStatic", mv -> {
            mv.visitFieldInsn(Opcodes.GETSTATIC, "shapes/Made", "own", "I");
            mv.visitInsn(Opcodes.IRETURN);
        });
        method(cw, "otherStatic", mv -> {
            mv.visitFieldInsn(Opcodes.GETSTATIC, "shapes/Other", "own", "I");
            mv.visitInsn(Opcodes.IRETURN);
        });
        method(cw, "selfLoop", mv -> {
            Label l = new Label();
            mv.visitLabel(l);
            mv.visitJumpInsn(Opcodes.GOTO, l);
        });
        method(cw, "seventeen", mv -> {
            for (int i = 0; i < 16; i++) {
                mv.visitInsn(Opcodes.NOP);
            }
            mv.visitVarInsn(Opcodes.ILOAD, 0);
            mv.visitInsn(Opcodes.IRETURN);
        });
        method(cw, "sixteen", mv -> {
            for (int i = 0; i < 14; i++) {
                mv.visitInsn(Opcodes.NOP);
            }
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
        });
        cw.visitEnd();
        byte[] made = cw.toByteArray();
        Set<String> trivial = new TreeSet<>(TrivialMethods.of(made));
        assertEquals(new TreeSet<>(AsmTrivialMethods.of(made)), trivial);
        assertEquals(new TreeSet<>(Arrays.asList("lookup0(I)I", "lookup1(I)I", "lookup2(I)I", "lookup3(I)I", "ownStatic(I)I",
                "sixteen(I)I", "table0(I)I", "table1(I)I", "table2(I)I", "table3(I)I", "wideIinc(I)I")), trivial);
    }

    @Test
    void aJsrIsNotTrivial() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_4, Opcodes.ACC_PUBLIC, "shapes/Old", null, "java/lang/Object", null);
        method(cw, "jsr", mv -> {
            Label sub = new Label();
            mv.visitJumpInsn(Opcodes.JSR, sub);
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
            mv.visitLabel(sub);
            mv.visitVarInsn(Opcodes.ASTORE, 1);
            mv.visitVarInsn(Opcodes.RET, 1);
        });
        method(cw, "plain", mv -> {
            mv.visitInsn(Opcodes.ICONST_0);
            mv.visitInsn(Opcodes.IRETURN);
        });
        cw.visitEnd();
        byte[] old = cw.toByteArray();
        assertEquals(new TreeSet<>(AsmTrivialMethods.of(old)), new TreeSet<>(TrivialMethods.of(old)));
        assertEquals(new TreeSet<>(Arrays.asList("plain(I)I")), new TreeSet<>(TrivialMethods.of(old)));
    }

    /** A class whose one method m(I)I has exactly {@code code} (written over the nops ASM wrote). */
    private static byte[] withCode(int... code) {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "shapes/Raw", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m", "(I)I", null, null);
        mv.visitCode();
        for (int i = 0; i < code.length; i++) {
            mv.visitInsn(Opcodes.NOP);
        }
        mv.visitMaxs(4, 400);
        mv.visitEnd();
        cw.visitEnd();
        byte[] b = cw.toByteArray();
        int at = MethodSkim.of(b).codeAt[0] + 8; // after max_stack, max_locals, code_length
        for (int i = 0; i < code.length; i++) {
            b[at + i] = (byte) code[i];
        }
        return b;
    }

    private static void same(String shape, boolean trivial, int... code) {
        byte[] b = withCode(code);
        Set<String> expected = trivial ? Collections.singleton("m(I)I") : Collections.<String>emptySet();
        assertEquals(expected, new TreeSet<>(AsmTrivialMethods.of(b)), shape + " (ASM)");
        assertEquals(expected, new TreeSet<>(TrivialMethods.of(b)), shape);
    }

    /** The rules real libraries never exercise in an otherwise trivial method (a review's mutants survived the rest). */
    @Test
    void rawShapesGiveTheSameTrivialMethodsAsAsmsPass() {
        same("goto_w forward", true, 0xC8, 0, 0, 0, 5, 0x04, 0xAC);
        same("goto_w backward", false, 0x00, 0xC8, 0xFF, 0xFF, 0xFF, 0xFF, 0x04, 0xAC);
        same("jsr_w", false, 0xC9, 0, 0, 0, 7, 0x04, 0xAC, 0x4C, 0xA9, 1);
        same("tableswitch, default forward", true,
                0x1A, 0xAA, 0, 0, 0, 0, 0, 19, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 0x03, 0xAC);
        same("tableswitch, default backward", false,
                0x1A, 0xAA, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 19, 0x03, 0xAC);
        same("lookupswitch, no pairs, default forward", true, 0x1A, 0xAB, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0x03, 0xAC);
        same("lookupswitch, no pairs, default backward", false, 0x1A, 0xAB, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0x03, 0xAC);
        same("monitorenter, method not synchronized", false, 0x01, 0xC2, 0x03, 0xAC);
        same("wide iload", true, 0xC4, 0x15, 0x01, 0x2C, 0xAC);
    }

    @Test
    void anExceptionHandlerIsNotTrivial() {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V1_8, Opcodes.ACC_PUBLIC, "shapes/Handler", null, "java/lang/Object", null);
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_STATIC, "m", "(I)I", null, null);
        mv.visitCode();
        Label start = new Label();
        Label end = new Label();
        Label handler = new Label();
        mv.visitTryCatchBlock(start, end, handler, null);
        mv.visitLabel(start);
        mv.visitVarInsn(Opcodes.ILOAD, 0);
        mv.visitLabel(end);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitLabel(handler);
        mv.visitInsn(Opcodes.POP);
        mv.visitInsn(Opcodes.ICONST_0);
        mv.visitInsn(Opcodes.IRETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        byte[] b = cw.toByteArray();
        assertEquals(new TreeSet<>(AsmTrivialMethods.of(b)), new TreeSet<>(TrivialMethods.of(b)));
        assertEquals(Collections.emptySet(), TrivialMethods.of(b));
    }

    /** An attribute of length -6 does not move the reader: 65,535 such fields kept the skim busy for 15 s. */
    @Test
    void anAttributeOfNegativeLengthIsRefusedAtOnce() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(0xCAFEBABE);
        out.writeShort(0);
        out.writeShort(52);
        out.writeShort(2); // constant pool: #1 Utf8 "A"
        out.writeByte(1);
        out.writeUTF("A");
        out.writeShort(0x21);
        out.writeShort(1);
        out.writeShort(0);
        out.writeShort(0); // interfaces
        out.writeShort(0xFFFF); // fields, each read over the next
        for (int i = 0; i < 65540; i++) {
            out.writeShort(0);
            out.writeShort(0xFFFF);
            out.writeShort(0xFFFA);
            out.writeShort(0xFFFF);
        }
        byte[] spin = bytes.toByteArray();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertTrue(TrivialMethods.of(spin).isEmpty());
            assertTrue(OriginalMaxLocals.of(spin).isEmpty());
        });
    }
}
