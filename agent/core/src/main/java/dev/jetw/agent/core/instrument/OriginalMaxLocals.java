package dev.jetw.agent.core.instrument;

import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code max_locals} of every method with code in a class file, read before it is woven: the
 * {@link LinkedCallWeaver} puts its own locals above the method's, so it needs the count at the method's first
 * instruction, where ASM has not yet reached {@code visitMaxs}. A skim (JVMS 4.1, 4.6, 4.7.3, {@link MethodSkim}):
 * the constant pool, then each method's name, descriptor and Code attribute's header; no instruction is read, and
 * only the names of methods are decoded.
 */
final class OriginalMaxLocals {

    private OriginalMaxLocals() {
    }

    /** name + descriptor of each method with a Code attribute to its max_locals; empty when the file cannot be read. */
    static Map<String, Integer> of(byte[] classFile) {
        try {
            MethodSkim skim = MethodSkim.of(classFile);
            Map<String, Integer> maxLocals = new HashMap<>(skim.methods * 2);
            for (int m = 0; m < skim.methods; m++) {
                if (skim.codeAt[m] >= 0) {
                    maxLocals.put(skim.key(m), ConstantPool.u2(classFile, skim.codeAt[m] + 2)); // after max_stack
                }
            }
            return maxLocals;
        } catch (ArrayIndexOutOfBoundsException | IOException | IllegalArgumentException e) {
            return Collections.emptyMap(); // a cut-off or malformed file: no method of it is woven
        }
    }
}
