package dev.jetw.agent.core.instrument;

import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * Finds the trivial methods of a class file: methods that cannot be slow by themselves, so that
 * tracing them costs a call's advice and tells nothing (option {@code trivial=}, docs/agent-options.md).
 * A method is trivial when its code is at most {@link #MAX_INSTRUCTIONS} instructions, loop-free
 * (jumps and switches only forward, no exception handler: each instruction runs at most once, so a call
 * runs at most that many), calls nothing (no invoke instruction), allocates nothing
 * (no {@code new} or array creation: that may run a GC or a class's initialiser), takes no lock
 * (not synchronized, no monitorenter) and reads or writes static fields only of its own class (another
 * class's static field may run that class's initialiser): getters, setters, constant returns, flag tests
 * such as {@code return holdCount == 0;}. Forward branches came in after a per-method count on H2
 * ({@code include=org.h2.**}): its hottest excluded methods were such tests ({@code Page.isPersistent},
 * {@code RootReference.isFree}, 30 M calls each per 1,200 rounds), each paying its advice until the remover
 * reached its class, and the retransformation then costing recompilation of its callers.
 *
 * <p>The scan reads the bytecode itself ({@link MethodSkim}, then each method's instructions until the first that
 * disqualifies it), not through ASM's reader: that was a second full pass of ASM over every class woven, each method's
 * code decoded (constants, labels, strings) however long, on the class-loading thread of a short job and in the JIT's
 * work on ASM (BENCHMARKS.md §25). On a class file the JVM accepts, the rules are those of that pass, instruction for
 * instruction ({@code TrivialMethodsScanTest} compares the two over every class of H2, Jackson, Kotlin's, Scala's and
 * Groovy's libraries and the JDK's java.base, and on made shapes of every rule).
 */
final class TrivialMethods {

    /** Getters are 2-3 instructions, setters 4; a handful of arithmetic on fields stays within this. */
    static final int MAX_INSTRUCTIONS = 16;

    private static final int ACC_SYNCHRONIZED = 0x0020;
    private static final int ACC_NATIVE = 0x0100;
    private static final int ACC_ABSTRACT = 0x0400;
    private static final int FIELDREF = 9;
    private static final int CLASS = 7;

    /** What an opcode is to the scan: counted and read on by its length, or one of the kinds below. */
    private static final byte[] KIND = new byte[256];
    /** Length of each fixed-length instruction (JVMS 6.5). */
    private static final byte[] LENGTH = new byte[256];
    private static final byte COUNTED = 0;
    /** Not trivial: calls, allocates, locks, jsr, or no instruction of a class file (202 and above). */
    private static final byte DISQUALIFIES = 1;
    private static final byte STATIC_FIELD = 2;
    private static final byte JUMP = 3;
    private static final byte JUMP_WIDE = 4;
    private static final byte TABLESWITCH = 5;
    private static final byte LOOKUPSWITCH = 6;
    private static final byte WIDE = 7;

    static {
        java.util.Arrays.fill(LENGTH, (byte) 1);
        java.util.Arrays.fill(KIND, 202, 256, DISQUALIFIES);
        for (int op : new int[] {16, 18, 21, 22, 23, 24, 25, 54, 55, 56, 57, 58, 169, 188}) { // bipush, ldc, loads, stores, ret, newarray
            LENGTH[op] = 2;
        }
        for (int op : new int[] {17, 19, 20, 132, 178, 179, 180, 181, 182, 183, 184, 187, 189, 192, 193}) { // sipush, ldc_w, ldc2_w, iinc, fields, invokes, new, anewarray, checkcast, instanceof
            LENGTH[op] = 3;
        }
        for (int op = 153; op <= 168; op++) { // if<cond>, if_<cmp>, goto, jsr
            LENGTH[op] = 3;
            KIND[op] = JUMP;
        }
        LENGTH[198] = 3; // ifnull
        LENGTH[199] = 3; // ifnonnull
        KIND[198] = JUMP;
        KIND[199] = JUMP;
        LENGTH[185] = 5; // invokeinterface
        LENGTH[186] = 5; // invokedynamic
        LENGTH[197] = 4; // multianewarray
        LENGTH[200] = 5; // goto_w
        LENGTH[201] = 5; // jsr_w
        KIND[200] = JUMP_WIDE;
        KIND[201] = JUMP_WIDE;
        KIND[170] = TABLESWITCH;
        KIND[171] = LOOKUPSWITCH;
        KIND[196] = WIDE;
        KIND[178] = STATIC_FIELD; // getstatic
        KIND[179] = STATIC_FIELD; // putstatic
        // invokevirtual, invokespecial, invokestatic, invokeinterface, invokedynamic, new, newarray, anewarray,
        // monitorenter, multianewarray, jsr, jsr_w
        for (int op : new int[] {182, 183, 184, 185, 186, 187, 188, 189, 194, 197, 168, 201}) {
            KIND[op] = DISQUALIFIES;
        }
    }

    private TrivialMethods() {
    }

    /** The trivial methods of {@code classFile} as name + descriptor; empty when the file cannot be read. */
    static Set<String> of(byte[] classFile) {
        try {
            MethodSkim skim = MethodSkim.of(classFile);
            Set<String> trivial = new HashSet<>();
            for (int m = 0; m < skim.methods; m++) {
                if ((skim.access[m] & (ACC_ABSTRACT | ACC_NATIVE | ACC_SYNCHRONIZED)) == 0 && skim.codeAt[m] >= 0
                        && isTrivial(skim, skim.codeAt[m])) {
                    trivial.add(skim.key(m));
                }
            }
            return trivial;
        } catch (RuntimeException | IOException | LinkageError e) {
            return Collections.emptySet(); // unreadable here: every method stays eligible, the weaving reports its own errors
        }
    }

    /**
     * Whether the code of the Code attribute at {@code codeAt} is trivial: the instructions are read until one
     * disqualifies the method or there are more than {@link #MAX_INSTRUCTIONS}. A jump or switch target at or before
     * its instruction goes backward (a loop).
     */
    private static boolean isTrivial(MethodSkim skim, int codeAt) {
        byte[] b = skim.classFile;
        int length = ConstantPool.u4(b, codeAt + 4);
        int code = codeAt + 8;
        if (length <= 0 || code + length + 2 > b.length) {
            throw new IllegalArgumentException("a Code attribute is cut off");
        }
        if (ConstantPool.u2(b, code + length) != 0) {
            return false; // an exception handler
        }
        int instructions = 0;
        for (int pc = 0; pc < length; ) {
            int op = b[code + pc] & 0xFF;
            if (++instructions > MAX_INSTRUCTIONS) {
                return false;
            }
            switch (KIND[op]) {
                case DISQUALIFIES:
                    return false;
                case STATIC_FIELD:
                    if (!ownField(skim, ConstantPool.u2(b, code + pc + 1))) {
                        return false;
                    }
                    pc += 3;
                    break;
                case JUMP:
                    if ((short) ConstantPool.u2(b, code + pc + 1) <= 0) {
                        return false;
                    }
                    pc += 3;
                    break;
                case JUMP_WIDE:
                    if (ConstantPool.u4(b, code + pc + 1) <= 0) {
                        return false;
                    }
                    pc += 5;
                    break;
                case TABLESWITCH: {
                    int at = code + pc + 1 + (3 - (pc & 3)); // padded to a multiple of 4 from the code's start
                    int low = ConstantPool.u4(b, at + 4);
                    int high = ConstantPool.u4(b, at + 8);
                    int targets = high - low + 1;
                    if (targets < 0 || !forward(b, at, 1) || !forward(b, at + 12, targets)) {
                        return false;
                    }
                    pc = at + 12 + 4 * targets - code;
                    break;
                }
                case LOOKUPSWITCH: {
                    int at = code + pc + 1 + (3 - (pc & 3));
                    int pairs = ConstantPool.u4(b, at + 4);
                    if (pairs < 0 || !forward(b, at, 1)) {
                        return false;
                    }
                    for (int i = 0; i < pairs; i++) {
                        if (ConstantPool.u4(b, at + 12 + 8 * i) <= 0) {
                            return false;
                        }
                    }
                    pc = at + 8 + 8 * pairs - code;
                    break;
                }
                case WIDE:
                    pc += (b[code + pc + 1] & 0xFF) == 132 ? 6 : 4; // wide iinc, or a wide load, store or ret
                    break;
                default:
                    pc += LENGTH[op];
            }
        }
        return instructions > 0;
    }

    /** Whether the {@code count} 4-byte jump offsets from {@code at} all go forward. */
    private static boolean forward(byte[] b, int at, int count) {
        for (int i = 0; i < count; i++) {
            if (ConstantPool.u4(b, at + 4 * i) <= 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the field of Fieldref {@code cpIndex} is declared by (named with) the class being scanned. */
    private static boolean ownField(MethodSkim skim, int cpIndex) {
        int fieldClass = ConstantPool.u2(skim.classFile, skim.entry(cpIndex, FIELDREF));
        int fieldClassName = ConstantPool.u2(skim.classFile, skim.entry(fieldClass, CLASS));
        int thisClassName = ConstantPool.u2(skim.classFile, skim.entry(skim.thisClass, CLASS));
        return skim.sameUtf8(fieldClassName, thisClassName);
    }
}
